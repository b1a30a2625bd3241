"""Stress the file-system broker: one process publishes messages as fast as it
can while another consumes them with aggressive polling. Prints how many
messages were read whole, how many were half-written (unreadable), and the
median publish-to-receive latency, for kombu's stock transport and for the
atomic one of the development stack (games/devtools/dev_broker.py).

    .venv/bin/python scripts/bench_dev_broker.py --messages 3000
"""

import argparse
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

from kombu import Connection


def options(folder: Path) -> dict:
    return {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder / "control"),
    }


def publish(transport: str, folder: str, count: int, size: int) -> None:
    with Connection(
        "filesystem://", transport=transport, transport_options=options(Path(folder))
    ) as conn:
        queue = conn.SimpleQueue("stress")
        for i in range(count):
            queue.put({"i": i, "sent": time.time(), "pad": "x" * size})


def consume(transport: str, folder: Path, count: int, timeout: float) -> tuple[int, int, list]:
    whole, broken, latency = 0, 0, []
    with Connection(
        "filesystem://", transport=transport, transport_options=options(folder)
    ) as conn:
        queue = conn.SimpleQueue("stress")
        deadline = time.monotonic() + timeout
        while whole + broken < count and time.monotonic() < deadline:
            try:
                message = queue.get(block=True, timeout=0.01)
            except queue.Empty:
                continue
            except ValueError:  # JSONDecodeError: a half-written message
                broken += 1
                continue
            latency.append(time.time() - message.payload["sent"])
            message.ack()
            whole += 1
    return whole, broken, latency


def run(transport: str, count: int, size: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "control").mkdir()
        spawn = multiprocessing.get_context("spawn")
        producer = spawn.Process(target=publish, args=(transport, tmp, count, size))
        producer.start()
        whole, broken, latency = consume(transport, folder, count, timeout=120)
        producer.join()
        median = statistics.median(latency) * 1000 if latency else float("nan")
        print(
            f"{transport:32} sent {count}  read whole {whole}  half-written {broken}  "
            f"lost {count - whole - broken}  median latency {median:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--size", type=int, default=20000, help="payload bytes")
    args = parser.parse_args()
    spawn = multiprocessing.get_context("spawn")
    for transport in ("filesystem", "games.devtools.dev_broker:Transport"):
        # Each in a process of its own: kombu keeps per-process transport state.
        case = spawn.Process(target=run, args=(transport, args.messages, args.size))
        case.start()
        case.join()


if __name__ == "__main__":
    main()
