"""The development broker writes each message atomically: a worker polling the
queue folder while a message is being written finds nothing, never half of it.
kombu's own file-system transport fails the same check (it opens the message
file under its final name before writing), which is what crashed the dev
worker with a JSONDecodeError."""

from queue import Empty

from kombu import Connection
from kombu.transport import filesystem

from games.devtools import dev_broker as devbroker


def connection(folder, transport):
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }
    return Connection("filesystem://", transport=transport, transport_options=options)


def read_while_writing(tmp_path, transport, module, monkeypatch) -> list:
    """Publish one message; in the middle of writing it, let a reader poll."""
    (tmp_path / "control").mkdir()
    queue = f"q{tmp_path.name}"  # kombu remembers declared queues process-wide
    seen = []
    with connection(tmp_path, transport) as writer, connection(tmp_path, transport) as reader:
        writer.SimpleQueue(queue)  # declares the queue and its binding
        reader_channel = reader.default_channel
        encode = module.str_to_bytes

        def encode_and_poll(text):
            try:
                seen.append(reader_channel._get(queue))
            except Empty:
                seen.append("nothing")
            except ValueError as error:  # a torn message: JSONDecodeError
                seen.append(f"torn: {error}")
            return encode(text)

        monkeypatch.setattr(module, "str_to_bytes", encode_and_poll)
        writer.SimpleQueue(queue).put({"task": "hello"})
        monkeypatch.undo()
        try:
            message = reader.SimpleQueue(queue).get(timeout=1)
        except Empty:
            seen.append("lost")
        else:
            seen.append(message.payload)
            message.ack()
    return seen


def test_a_reader_never_sees_half_a_message(tmp_path, monkeypatch):
    seen = read_while_writing(
        tmp_path, "games.devtools.dev_broker:Transport", devbroker, monkeypatch
    )
    assert seen == ["nothing", {"task": "hello"}]
    assert not list(tmp_path.glob("*.part"))  # nothing left behind


def test_kombus_own_transport_shows_the_torn_read(tmp_path, monkeypatch):
    """The defect the development broker exists for, kept visible: if kombu ever
    writes atomically, this fails and the workaround can go."""
    torn, after = read_while_writing(tmp_path, "filesystem", filesystem, monkeypatch)
    assert torn.startswith("torn: ")
    assert after == "lost"  # the reader took the file away half-written
