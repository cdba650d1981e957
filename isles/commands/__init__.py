"""One module per capability; each defines ``ORDER``, ``register`` and ``demo``.

``register(subparsers)`` adds its subcommands (each sets ``func``, a handler
``(argparse.Namespace) -> int`` returning the exit status); ``demo(out_dir,
echo)`` prints its section of ``isles demo`` and writes its pictures to
``out_dir``. Modules are discovered, so adding a capability touches no shared file.
"""
