import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

from grognard import rulesets
from toy import Toy
from toy_orders import ToyOrders

rulesets.register(Toy)
rulesets.register(ToyOrders)

# No per-example deadline (a 2-core CI machine is slow and noisy); in CI the examples are derandomised, so a
# run there is reproducible, while developers' runs keep exploring new examples.
settings.register_profile("grognard", deadline=None, print_blob=True)
settings.register_profile("ci", parent=settings.get_profile("grognard"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "grognard")


def pytest_addoption(parser):
    parser.addoption(
        "--fuzz-long",
        nargs="?",
        type=int,
        const=100_000,
        default=0,
        metavar="N",
        help="run the server's fuzz test with N examples (default 100,000) instead of the few hundred CI runs",
    )
