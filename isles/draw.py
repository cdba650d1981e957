"""Board pictures with matplotlib: terrain colours, number tokens, overlays.

Shared by every board capability (rally routes, set-up boards, ship fields).
The format follows the file suffix (``.png`` or ``.svg``). Drawing is bounded
(docs/boards.md, "Pictures"): a board of more than :data:`DETAIL_LIMIT` hexes is
drawn as coloured cells only, one of more than :data:`MAX_DRAWN_HEXES` refused.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import itertools

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import is_color_like, to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Patch, Rectangle

from isles.models.board import Board
from isles.models.catan import BuildingKind, HarbourKind, Terrain, pips
from isles.models.errors import InvalidInput
from isles.models.hexgrid import Edge, Hex, to_pixel

__all__ = [
    "DETAIL_LIMIT",
    "MAX_DRAWN_HEXES",
    "TERRAIN_COLOURS",
    "board_figure",
    "check_drawable",
    "draw_path",
    "draw_roads",
    "is_detailed",
    "save_figure",
]

#: Boards of at most this many hexes are drawn in full: number tokens, harbour
#: labels, arrows along a route. A bigger board is drawn as coloured cells (one
#: collection of hexagons), buildings, harbours and roads as marks without
#: labels, a route as one line: at that size a hex is a few pixels wide and the
#: labels would be unreadable anyway, while one text per hex is what made a
#: 10**5-hex picture take minutes and gigabytes.
DETAIL_LIMIT = 2_000

#: Largest board drawn at all (docs/boards.md, "Pictures"): beyond it a picture
#: is refused before any work. The cells of a 10**5-hex board take a few seconds
#: and a few hundred MB; this bound keeps any picture within about twice that.
MAX_DRAWN_HEXES = 200_000

TERRAIN_COLOURS: Mapping[Terrain, str] = {
    Terrain.FOREST: "#2e7d32",
    Terrain.PASTURE: "#9ccc65",
    Terrain.FIELDS: "#f9d849",
    Terrain.HILLS: "#c75b39",
    Terrain.MOUNTAINS: "#8d8d8d",
    Terrain.DESERT: "#e8d6a8",
    Terrain.SEA: "#4f8fd6",
    Terrain.GOLD: "#d4a017",
}


def is_detailed(board: Board) -> bool:
    """Whether ``board`` is drawn in full (at most :data:`DETAIL_LIMIT` hexes).

    Parameters
    ----------
    board : Board

    Returns
    -------
    bool
        True when tokens, labels and route arrows are drawn; False when the
        board is drawn as coloured cells and marks only.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> is_detailed(beginner_board())
    True
    """
    return len(board) <= DETAIL_LIMIT


def check_drawable(board: Board, field: str = "board", value: object = None) -> None:
    """Refuse, before any work, a board too big to draw (over :data:`MAX_DRAWN_HEXES`).

    Parameters
    ----------
    board : Board
    field : str, default "board"
        What the message names: the parameter, or the option the user typed
        (``"--png"``).
    value : object, optional
        The value the message shows (the picture's file name as typed).

    Raises
    ------
    InvalidInput
        When the board has more than :data:`MAX_DRAWN_HEXES` hexes; the message
        gives the count and the limit.

    Notes
    -----
    The command lines call it right after reading the board, so a picture
    that would be refused costs no solve. Counting the hexes is all it does.

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> check_drawable(beginner_board())
    """
    if len(board) > MAX_DRAWN_HEXES:
        raise InvalidInput(
            field,
            value,
            f"a board of at most {MAX_DRAWN_HEXES} hexes to draw (or no picture)",
            problem=f"the board has {len(board)} hexes, too many to draw",
        )


#: Longest route drawn as arrows, step by step; a longer one is one line.
_ARROW_LIMIT = 200

#: The corners of a hexagon of radius 0.98 (pointy-topped, as :func:`to_pixel` lays
#: hexes), relative to its centre.
_CORNERS = 0.98 * np.array(
    [(math.sin(k * math.pi / 3), math.cos(k * math.pi / 3)) for k in range(6)]
)


def board_figure(
    board: Board,
    *,
    title: str | None = None,
    marked: Iterable[Hex] = (),
    legend: bool = True,
) -> tuple[Figure, Axes]:
    """Draw ``board`` (hex size 1, see :func:`isles.models.hexgrid.to_pixel`) and return it.

    Parameters
    ----------
    board : Board
        Any board; terrains in :data:`TERRAIN_COLOURS`.
    title : str, optional
        The picture's title.
    marked : iterable of Hex
        Hexes outlined in thick black (goals, fixed tiles).
    legend : bool, default True
        A legend of the terrains present.

    Returns
    -------
    (Figure, Axes)
        A matplotlib figure to draw more on, then :func:`save_figure`.

    Notes
    -----
    Number tokens are drawn as discs (6 and 8 in red, dot count = pips);
    harbours as white discs on the sea side of their edge with their ratio;
    roads, settlements and cities in their player's colour (the player's name
    when it is a colour, such as ``"red"``). The hexes are one collection of
    hexagons; a board of more than :data:`DETAIL_LIMIT` hexes gets no tokens
    or labels (cells and marks only), so that drawing stays bounded (a
    10**5-hex board in seconds, docs/boards.md, "Pictures").

    Raises
    ------
    InvalidInput
        Naming ``board`` when it has more than :data:`MAX_DRAWN_HEXES` hexes
        (:func:`check_drawable`).

    Examples
    --------
    >>> from isles.models.board import beginner_board
    >>> fig, ax = board_figure(beginner_board(), title="Beginner board")
    >>> len(ax.collections[0].get_paths())  # the hexes: one collection
    37
    >>> plt.close(fig)
    """
    check_drawable(board)
    marked_set = set(marked)
    detailed = is_detailed(board)
    hexes = list(board.tiles)
    centres = np.array([to_pixel(h) for h in hexes], dtype=float).reshape(-1, 2)
    xs, ys = centres[:, 0], centres[:, 1]
    lo_x, hi_x = (float(xs.min()), float(xs.max())) if len(hexes) else (0.0, 0.0)
    lo_y, hi_y = (float(ys.min()), float(ys.max())) if len(hexes) else (0.0, 0.0)
    width = hi_x - lo_x + 2
    height = hi_y - lo_y + 2
    scale = min(12.0, max(5.0, 0.55 * max(width, height)))
    fig, ax = plt.subplots(
        figsize=(scale * width / max(width, height) + 2, scale * height / max(width, height))
    )
    # One collection of hexagons, whatever the size: one artist, not one per hex.
    ax.add_collection(
        PolyCollection(
            list(centres[:, None, :] + _CORNERS[None, :, :]),
            facecolors=[TERRAIN_COLOURS[t.terrain] for t in board.tiles.values()],
            edgecolors="white" if detailed else "none",
            linewidths=1.0,
        )
    )
    outlined = [i for i, h in enumerate(hexes) if h in marked_set]
    if outlined:
        ax.add_collection(
            PolyCollection(
                list(centres[outlined, None, :] + _CORNERS[None, :, :]),
                facecolors="none",
                edgecolors="black",
                linewidths=3.0 if detailed else 1.0,
                zorder=2,
            )
        )
    if detailed:
        _draw_tokens(ax, board)
    _draw_harbours(ax, board, detailed)
    _draw_buildings_and_roads(ax, board, detailed)
    ax.set_xlim(lo_x - 1.2, hi_x + 1.2)
    ax.set_ylim(lo_y - 1.2, hi_y + 1.2)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    if legend:
        present = sorted({t.terrain for t in board.tiles.values()}, key=list(Terrain).index)
        ax.legend(
            handles=[Patch(facecolor=TERRAIN_COLOURS[t], label=t.value) for t in present],
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
            frameon=False,
            fontsize=8,
        )
    return fig, ax


def _draw_tokens(ax: Axes, board: Board) -> None:
    """Number tokens: a disc with the number and its pips (6 and 8 in red)."""
    for h, tile in board.tiles.items():
        x, y = to_pixel(h)
        if tile.number is not None:
            hot = tile.number in (6, 8)
            ax.add_patch(
                Circle((x, y), 0.36, facecolor="#fff8e7", edgecolor="#555", linewidth=0.6, zorder=3)
            )
            ax.text(
                x,
                y + 0.05,
                str(tile.number),
                ha="center",
                va="center",
                zorder=4,
                fontsize=9,
                fontweight="bold",
                color="#c62828" if hot else "black",
            )
            ax.text(
                x,
                y - 0.2,
                "·" * pips(tile.number),
                ha="center",
                va="center",
                zorder=4,
                fontsize=7,
                color="#c62828" if hot else "black",
            )


#: Harbour labels: the ratio, and the resource's initial for a 2:1 harbour.
_HARBOUR_LABELS = {
    kind: f"{kind.ratio}:1" if kind.resource is None else f"2:1\n{kind.value}"
    for kind in HarbourKind
}

#: Colours of players whose names are not matplotlib colours, in order of appearance.
_PLAYER_CYCLE = ("#d32f2f", "#1565c0", "#f9a825", "#2e7d32", "#6a1b9a", "#ef6c00")


def _player_colours(board: Board) -> dict[str, str]:
    """A colour per player: the name itself when it is a colour ("red"), else one in turn."""
    names = dict.fromkeys([*(b.player for b in board.buildings.values()), *board.roads.values()])
    out = {name: to_hex(name) for name in names if is_color_like(name)}
    spare = (c for c in _PLAYER_CYCLE * (1 + len(names)) if c not in out.values())
    for name in names:
        out.setdefault(name, next(spare))
    return out


def _draw_harbours(ax: Axes, board: Board, detailed: bool) -> None:
    """A harbour: a white marker on its side, on the sea half, with its ratio (in full)."""
    spots = []
    for e, kind in board.harbours.items():
        sea, land = sorted(e, key=lambda h: board.tiles[h].terrain.is_land)
        (sx, sy), (lx, ly) = to_pixel(sea), to_pixel(land)
        x, y = sx + 0.3 * (lx - sx), sy + 0.3 * (ly - sy)
        spots.append((x, y))
        if detailed:
            ax.add_patch(
                Circle((x, y), 0.27, facecolor="white", edgecolor="#333", linewidth=0.8, zorder=5)
            )
            ax.text(x, y, _HARBOUR_LABELS[kind], ha="center", va="center", fontsize=5.5, zorder=6)
    if spots and not detailed:
        xs, ys = zip(*spots, strict=True)
        ax.scatter(xs, ys, s=4, c="white", marker="o", linewidths=0, zorder=5)


def _draw_buildings_and_roads(ax: Axes, board: Board, detailed: bool) -> None:
    """Roads as thick sides, settlements as squares, cities as bigger squares, in player colours."""
    colours = _player_colours(board)
    if board.roads:
        ax.add_collection(
            LineCollection(
                [_edge_segment(e) for e in board.roads],
                colors=[colours[p] for p in board.roads.values()],
                linewidths=4 if detailed else 1,
                zorder=5,
            )
        )
    squares = []
    for v, building in board.buildings.items():
        points = [to_pixel(h) for h in v]
        x = sum(p[0] for p in points) / 3
        y = sum(p[1] for p in points) / 3
        squares.append((x, y, colours[building.player]))
        if not detailed:
            continue
        size = 0.32 if building.kind is BuildingKind.CITY else 0.22
        ax.add_patch(
            Rectangle(
                (x - size / 2, y - size / 2),
                size,
                size,
                facecolor=colours[building.player],
                edgecolor="black",
                linewidth=0.8,
                zorder=7,
            )
        )
    if squares and not detailed:
        xs, ys, fill = zip(*squares, strict=True)
        ax.scatter(xs, ys, s=4, c=list(fill), marker="s", linewidths=0, zorder=7)


def _edge_segment(e: Edge) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of the side shared by ``e.a`` and ``e.b`` (hex size 1)."""
    (ax_, ay), (bx, by) = to_pixel(e.a), to_pixel(e.b)
    mx, my = (ax_ + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax_, by - ay
    norm = math.hypot(dx, dy)
    half = 0.49  # half the side of a hex drawn with radius 0.98
    px, py = -dy / norm * half, dx / norm * half
    return (mx + px, my + py), (mx - px, my - py)


def draw_roads(ax: Axes, roads: Iterable[Edge], colour: str = "#b71c1c") -> None:
    """Draw roads (edges) as thick segments on the side the two hexes share.

    Parameters
    ----------
    ax : Axes
        From :func:`board_figure`.
    roads : iterable of Edge
    colour : str, default dark red
        A matplotlib colour.
    """
    segments = [_edge_segment(e) for e in roads]
    if segments:  # one collection: a player may own many roads on a big board
        ax.add_collection(
            LineCollection(segments, colors=colour, linewidths=5, capstyle="round", zorder=5)
        )


def draw_path(
    ax: Axes, path: Sequence[Hex], colour: str = "black", label: str | None = None
) -> None:
    """Draw a hex path as arrows from centre to centre: the start a dot, the end ringed.

    Parameters
    ----------
    ax : Axes
        From :func:`board_figure`.
    path : sequence of Hex
        Consecutive hexes; nothing is drawn for an empty path, a dot for one hex.
        A path of more than ``_ARROW_LIMIT`` (200) hexes is drawn as one line
        without arrows, so that its cost stays bounded.
    colour : str, default "black"
        A matplotlib colour.
    label : str, optional
        Legend label of the start dot.
    """
    pts = [to_pixel(h) for h in path]
    if len(pts) > _ARROW_LIMIT:  # one line, not one arrow per step (bounded drawing)
        ax.plot(*zip(*pts, strict=True), color=colour, lw=2.2, zorder=6)
    for (x0, y0), (x1, y1) in itertools.pairwise(pts if len(pts) <= _ARROW_LIMIT else ()):
        ax.annotate(
            "",
            xy=(x1, y1),
            xytext=(x0, y0),
            zorder=6,
            arrowprops={
                "arrowstyle": "-|>",
                "color": colour,
                "lw": 2.2,
                "shrinkA": 6,
                "shrinkB": 6,
            },
        )
    if pts:
        ax.plot(*pts[0], marker="o", markersize=11, color=colour, zorder=7, label=label)
        ax.plot(
            *pts[-1],
            marker="o",
            markersize=30,
            markerfacecolor="none",
            markeredgewidth=3,
            color=colour,
            zorder=7,
        )


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Save to ``path`` (format from the suffix, .png or .svg) and close the figure.

    Parameters
    ----------
    fig : Figure
    path : str or Path

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InvalidInput
        If the suffix is neither .png nor .svg (the figure is closed too).
    OSError
        If the file cannot be written (the command line checks its output
        paths before any work, with :func:`isles.cli.check_output`).
    """
    p = Path(path)
    if p.suffix.lower() not in (".png", ".svg"):
        plt.close(fig)
        raise InvalidInput("picture file", str(path), "a file name ending in .png or .svg")
    fig.savefig(p, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return p
