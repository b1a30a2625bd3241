"""The broker of the development stack, which needs no server: kombu's
file-system transport with atomic writes.

kombu writes each message straight into the queue folder under its final
name, so a worker polling the folder can pick up (and move away) a file that
is still being written, read half a message and die on a ``JSONDecodeError``.
Here a message is written under a name no reader looks at (it does not end in
``.<queue>.msg``), flushed, and only then renamed into place: a rename within
one folder is atomic, so a reader sees a whole message or none.
"""

import contextlib
import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        # The same name kombu gives a message (time first, so folders sort in order).
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
    # Safe to poll often now: a reader never meets a half-written message.
    polling_interval = 0.2
    # A folder has no host: without this, kombu warns "No hostname was supplied"
    # whenever a task is sent (every management command that owes an email).
    default_connection_params = {}
