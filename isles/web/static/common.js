// isles serve: what every page shares (docs/serve.md). The DOM is built from
// text nodes only: a name typed by a player or read from a file is never HTML.

/** An element: el("button", {class: "chip", onclick: f, dataset: {v: "1"}}, "text", child). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") Object.assign(node.style, value); // CSSOM: allowed by the CSP
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "value") node.value = value;
    else if (key === "checked") node.checked = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** An SVG element, attributes set as text. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** A <select> of [value, label] pairs. */
export function select(options, current, onchange, props = {}) {
  const node = el("select", { ...props, onchange: (event) => onchange(event.target.value) });
  for (const [value, label] of options) {
    node.append(el("option", { value: String(value), selected: String(value) === String(current) }, label));
  }
  return node;
}

// Errors ---------------------------------------------------------------------------

/** The place where the library's message for ``field`` (and the fields under it) appears. */
export function fieldError(field) {
  return el("div", { class: "field-error", role: "alert", dataset: { field } });
}

/** Clear the errors shown, except those kept (a refused file, a number field typed wrong). */
export function clearErrors(root = document) {
  for (const node of root.querySelectorAll(".field-error")) if (!node.dataset.kept) node.textContent = "";
  for (const node of root.querySelectorAll(".conflict")) node.classList.remove("conflict");
}

/** Clear the kept errors of ``field`` (another file chosen, the number field typed again). */
export function forgetError(field, root = document) {
  for (const node of root.querySelectorAll(".field-error[data-kept]")) {
    if (node.dataset.kept !== field) continue;
    node.textContent = "";
    delete node.dataset.kept;
  }
}

/**
 * Show {field, message} next to the longest matching field (else the page's own place).
 * A cancel is no error: the job panel says "cancelled" itself, nothing turns red.
 * With ``keep``, an analysis that ends meanwhile (clearErrors) leaves it: it stays
 * until forgetError(field) (a refused file until the next file is chosen).
 */
export function showError(error, root = document, { keep = false } = {}) {
  if (error && error.cancelled) return;
  const field = error && error.field ? String(error.field) : "";
  let best = null;
  let bestLength = -1;
  for (const node of root.querySelectorAll(".field-error")) {
    const name = node.dataset.field || "";
    const matches = name === "" || field === name || field.startsWith(name + ".") || field.startsWith(name + "[");
    if (matches && name.length > bestLength) {
      best = node;
      bestLength = name.length;
    }
  }
  const message = error && error.message ? String(error.message) : "something went wrong";
  if (best) {
    best.textContent = message;
    if (keep) best.dataset.kept = field;
    else delete best.dataset.kept;
  } else window.alert(message);
}

// The server -----------------------------------------------------------------------

/**
 * An answer that is not a result: ``field`` and ``message`` as the library words them;
 * ``cancelled`` (the player cancelled: not an error), ``busy`` (the server is full:
 * wait, the same request succeeds later) and ``status`` (the HTTP status) say which.
 */
export class RequestError extends Error {
  constructor(error, extra = {}) {
    super(error.message);
    this.field = error.field;
    this.cancelled = Boolean(extra.cancelled || error.cancelled);
    this.busy = Boolean(extra.busy);
    this.status = extra.status ?? null;
    this.retryAfter = extra.retryAfter ?? null;
  }
}

async function answer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    // A body cut off (the connection lost, or this page being left or reloaded) is no
    // answer: said as a lost server (status 0, asked again), never as the request's fault.
    if (!(error instanceof SyntaxError)) throw lostServer();
    throw new RequestError({ field: null, message: `the server answered ${response.status}` }, { status: response.status });
  }
  if (!response.ok) {
    const busy = response.status === 503 || response.status === 429;
    const retryAfter = Number(response.headers.get("retry-after")) || null;
    throw new RequestError(data.error || { field: null, message: String(response.status) }, { status: response.status, busy, retryAfter });
  }
  return data;
}

/** fetch, a lost connection said in isles' words (status 0), not the browser's "Failed to fetch". */
async function request(url, options) {
  try {
    return await fetch(url, options);
  } catch {
    throw lostServer();
  }
}

function lostServer() {
  return new RequestError({ field: null, message: "the server does not answer (is isles serve still running?)" }, { status: 0 });
}

export async function getJSON(url) {
  return answer(await request(url, { headers: { accept: "application/json" } }));
}

export async function postJSON(url, body) {
  return answer(
    await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The jobs this page runs: a closed or reloaded page cancels them at once (the
// server also ends a job nobody polls, docs/serve.md "Jobs").
const openJobs = new Set();
window.addEventListener("pagehide", () => {
  for (const id of openJobs) {
    try {
      navigator.sendBeacon(`/api/jobs/${id}/cancel`, new Blob(["{}"], { type: "application/json" }));
    } catch {
      // the server's lease ends it
    }
  }
});

/**
 * A job panel: a progress bar of the time used, the elapsed seconds and a Cancel
 * button. ``panel.run(kind, body)`` resolves with the result's to_dict() or
 * rejects with a RequestError: bad input or a time limit (shown with showError),
 * or ``cancelled`` (the panel says so, neutral; showError shows nothing). A busy
 * server is waited for: the panel says "waiting" (and how many jobs are ahead)
 * and asks again, until the job runs or the player cancels.
 *
 * With ``remember`` (the page's key), the question being asked (its kind and
 * request) is kept in the tab's sessionStorage while it runs, so a page reloaded
 * meanwhile (which cancels the job, see "pagehide") can ask it again by itself:
 * ``panel.pending()`` is that question or null, ``panel.run(kind, body, {again:
 * true})`` says "asked again after the reload", ``panel.forget()`` drops it. An
 * answer, an error or a cancel ends it: nothing is pending any more.
 */
export function jobPanel({ remember = null } = {}) {
  const slot = remember ? `isles.${remember}.asking` : null;
  const stored = () => {
    try {
      const text = slot ? window.sessionStorage.getItem(slot) : null;
      return text === null ? null : JSON.parse(text);
    } catch {
      return null;
    }
  };
  const keep = (value) => {
    if (!slot) return;
    try {
      if (value === null) window.sessionStorage.removeItem(slot);
      else window.sessionStorage.setItem(slot, JSON.stringify(value));
    } catch {
      // Private browsing or a full store: a reload only forgets the question.
    }
  };
  const bar = el("progress", { max: "1", value: "0" });
  const text = el("span", { class: "muted job-text" });
  const cancel = el("button", { type: "button", class: "cancel" }, "Cancel");
  const node = el("div", { class: "job", hidden: true, "aria-live": "polite" }, bar, text, cancel);
  let current = null;
  cancel.addEventListener("click", () => {
    if (current) current.cancelled = true;
  });
  let note = ""; // "asked again after the reload: ", before what the job says
  const show = (how, message) => {
    node.dataset.state = how;
    text.textContent = how === "cancelled" ? message : note + message;
  };
  const cancelled = () => new RequestError({ field: null, message: "cancelled" }, { cancelled: true });
  // Start the job, waiting while the server is busy (503): the job's first state.
  const submit = async (kind, body, mine) => {
    for (let wait = 1; ; wait = Math.min(wait * 1.5, 10)) {
      if (mine.cancelled) throw cancelled();
      try {
        return await postJSON(`/api/solve/${kind}`, body);
      } catch (error) {
        if (error.status === 0) {
          await lost(wait, mine); // restarted or away: asked again, with backoff
          continue;
        }
        if (!error.busy) throw error;
        const seconds = Math.max(wait, error.retryAfter || 0);
        const why = error.message.replace(/^the server is busy: /, "").replace(/; try again in a few seconds$/, "");
        show("waiting", `waiting: the server is busy (${why}); asking again in ${Math.round(seconds)} s`);
        bar.removeAttribute("value"); // indeterminate
        for (let t = 0; t < seconds * 5 && !mine.cancelled; t++) await sleep(200);
      }
    }
  };
  // The server does not answer (restarted, or the phone lost the network): said as
  // waiting, never as an error of the request, and asked again after ``seconds``.
  const lost = async (seconds, mine) => {
    show("waiting", `waiting: the server does not answer (is isles serve still running?); asking again in ${Math.round(seconds)} s`);
    bar.removeAttribute("value");
    for (let t = 0; t < seconds * 5 && !mine.cancelled; t++) await sleep(200);
  };
  const restarted = () => Object.assign(new Error("the server forgot the job"), { restarted: true });
  // Poll the job (each poll renews its lease) until it ends, or cancel it: its last state.
  const follow = async (job, mine) => {
    const id = job.job;
    openJobs.add(id);
    try {
      let wait = 1;
      while (job.state === "running" || job.state === "queued") {
        if (mine.cancelled) {
          try {
            return await postJSON(`/api/jobs/${id}/cancel`, {});
          } catch {
            return { ...job, state: "cancelled" }; // the server is gone, and its job with it
          }
        }
        if (job.state === "queued") {
          bar.removeAttribute("value");
          show("waiting", job.ahead > 0 ? `waiting, ${job.ahead} ahead` : "waiting, next in line");
        } else if (typeof job.progress === "number") {
          // The solve's own progress (a lighthouse table: the fraction of its classes valued).
          bar.max = 1;
          bar.value = job.progress;
          show("running", `solving: ${Math.round(100 * job.progress)}% done, ${job.elapsed.toFixed(1)} s`);
        } else {
          bar.max = job.time_limit;
          bar.value = job.elapsed;
          show("running", `working ${job.elapsed.toFixed(1)} s (limit ${job.time_limit} s)`);
        }
        await sleep(200);
        try {
          job = await getJSON(`/api/jobs/${id}`);
          wait = 1;
        } catch (error) {
          if (error.status === 404) throw restarted(); // a new server: the request is sent again
          if (error.status !== 0) throw error;
          await lost(wait, mine);
          wait = Math.min(wait * 1.5, 10);
        }
      }
      return job;
    } finally {
      openJobs.delete(id);
    }
  };
  node.run = async (kind, body, { again = false } = {}) => {
    if (current) current.cancelled = true;
    const mine = { cancelled: false, token: `${Date.now()}-${Math.random()}` };
    current = mine;
    keep({ token: mine.token, kind, body });
    note = again ? "asked again after the reload: " : "";
    node.hidden = false;
    bar.hidden = false;
    cancel.hidden = false;
    bar.value = 0;
    show("starting", "starting…");
    try {
      // A server restarted mid-job has forgotten it: the same request, sent again.
      const attempt = async () => {
        for (let again = 0; ; again++) {
          try {
            return await follow(await submit(kind, body, mine), mine);
          } catch (error) {
            if (!error.restarted || again >= 5) throw error.restarted ? new RequestError({ field: null, message: "the server was restarted several times: try again" }) : error;
          }
        }
      };
      let job = await attempt();
      // Cancelled though nobody here asked: the server ended it while this page slept
      // in the background (its lease lapsed). Asked again, a few times.
      for (let again = 0; job.state === "cancelled" && !mine.cancelled && again < 3; again++) {
        job = await attempt();
      }
      if (job.state === "done") return job.result;
      if (job.state === "cancelled") throw cancelled();
      throw new RequestError(job.error || { field: null, message: job.state });
    } catch (error) {
      if (error instanceof RequestError && error.cancelled && current === mine) {
        // Said once, neutral, where the work was: nothing is wrong with the request.
        bar.hidden = true;
        cancel.hidden = true;
        show("cancelled", "cancelled");
        current = null;
      }
      throw error;
    } finally {
      // Answered, refused or cancelled: not asked any more (a later question keeps its own).
      if (stored()?.token === mine.token) keep(null);
      if (current === mine) {
        current = null;
        node.hidden = true;
      }
    }
  };
  node.busy = () => current !== null;
  /** The question a reload interrupted ({kind, body}), or null. */
  node.pending = () => {
    const asking = stored();
    return asking && current === null ? { kind: asking.kind, body: asking.body } : null;
  };
  /** Drop the question a reload interrupted (the page will not ask it again). */
  node.forget = () => {
    if (current === null) keep(null);
  };
  /** Cancel the job under way (its inputs changed): as the Cancel button does. */
  node.cancel = () => {
    if (current) current.cancelled = true;
  };
  return node;
}

// State kept in the browser --------------------------------------------------------

export function load(key, fallback) {
  try {
    const text = window.localStorage.getItem(`isles.${key}`);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  try {
    window.localStorage.setItem(`isles.${key}`, JSON.stringify(value));
  } catch {
    // Private browsing or a full store: the page still works, it only forgets.
  }
}

/** Offer ``value`` as a JSON file named ``name``. */
export function download(name, value) {
  const blob = new Blob([JSON.stringify(value, null, 1) + "\n"], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * A file picker that reads a JSON file and calls ``onload(value)``. A file it
 * refuses itself (too large, not JSON) is said beside ``field`` and kept there
 * until the next file, whatever ends meanwhile (showError's ``keep``).
 */
export function uploadButton(label, field, onload) {
  const input = el("input", { type: "file", accept: ".json,application/json", hidden: true });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    forgetError(field); // the last file's refusal, said until this one
    if (file.size > 2 * 1024 * 1024) {
      showError({ field, message: `${field}: ${file.name} is larger than 2 MiB` }, document, { keep: true });
      return;
    }
    let value;
    try {
      value = JSON.parse(await file.text());
    } catch {
      showError({ field, message: `${field}: ${file.name} is not JSON` }, document, { keep: true });
      return;
    }
    onload(value);
  });
  const button = el("button", { type: "button", onclick: () => input.click() }, label);
  return el("span", {}, button, input);
}

// Number fields --------------------------------------------------------------------

const WHOLE = /^[+-]?[0-9]+$/;
const DECIMAL = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/**
 * A number field that never turns what was typed into another number. Text
 * that is empty or no number (or not a whole number where one is asked, as
 * ``isles`` reads it: digits only, ``1e3`` and ``1_000`` are not) is refused
 * beside the field in the page's words, naming the field and quoting the text
 * typed, and ``onchange`` is not called: nothing is sent, and numbersReady()
 * says so before a request. The range is the declaration's: the server checks
 * it and answers in the library's words.
 *
 *   numberInput({ field: "seed", label: "Seed", value: 0, whole: true, onchange: (n) => ... , ...props })
 */
export function numberInput({ field, label, value, whole = true, onchange, ...props }) {
  const input = el("input", {
    type: "text",
    inputmode: whole ? "numeric" : "decimal",
    autocomplete: "off",
    ...props,
    value: value === null || value === undefined ? "" : String(value),
    dataset: { ...(props.dataset || {}), number: field },
  });
  input.addEventListener("change", () => {
    const text = input.value.trim();
    const n = Number(text);
    let wrong = null;
    if (text === "") wrong = `${label}: empty; type ${whole ? "a whole number" : "a number"}`;
    else if (!(whole ? WHOLE : DECIMAL).test(text) || !Number.isFinite(n)) wrong = `${label}: “${input.value}” is not ${whole ? "a whole number (digits only)" : "a number"}`;
    else if (whole && !Number.isSafeInteger(n)) wrong = `${label}: “${input.value}” has too many digits to be sent exactly`;
    if (wrong) {
      input.setAttribute("aria-invalid", "true");
      showError({ field, message: wrong }, document, { keep: true });
      return;
    }
    input.removeAttribute("aria-invalid");
    forgetError(field);
    onchange(n);
  });
  return input;
}

/** Whether every number field of the page holds a number; if not, its refusal is said again. */
export function numbersReady(root = document) {
  const bad = root.querySelector("input[data-number][aria-invalid]:not(:disabled)");
  if (!bad) return true;
  bad.dispatchEvent(new Event("change"));
  bad.focus();
  return false;
}

/** The header with the pages. */
export function header(current) {
  const pages = [
    ["/plunder", "Plunder"],
    ["/lighthouse", "Lighthouses"],
    ["/rally", "Rally"],
    ["/setup", "Board set-up"],
  ];
  return el(
    "header",
    { class: "top" },
    el("a", { href: "/", class: "brand" }, "isles"),
    ...pages.map(([href, label]) => el("a", { href, "aria-current": href === current ? "page" : null }, label)),
  );
}

/** A probability as the library writes it: the exact "p/q" when known, else the float. */
export function probabilityText(p, exact) {
  if (exact) return exact.endsWith("/1") ? exact.slice(0, -2) : exact;
  return p === null || p === undefined ? "–" : Number(p).toFixed(6);
}
