"""The hook log: one line per problem, in the data folder, never on stdout.

Contract: :func:`log` never raises and never writes to stdout.  Lines go to
``<data dir>/forewarn.log`` (rotated at 1 MiB); if that cannot be written
they go to stderr, which Claude Code keeps in its debug log.
"""

import os
import sys
import time

from . import paths

_MAX_BYTES = 1 << 20


def log(component, message):
    """Append ``<UTC time> <component> <message>`` to the hook log."""
    line = "%s %s %s\n" % (
        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        component,
        " ".join(str(message).split())[:2000],
    )
    try:
        from . import appendfile  # here, not at the top: most hook runs never log

        appendfile.append(os.path.join(paths.data_dir(), "forewarn.log"), line.encode("utf-8", "replace"), _MAX_BYTES)
    except Exception:
        try:
            sys.stderr.write("forewarn: " + line)
        except Exception:
            pass
