"""``grognard serve`` with the test rulesets registered (the toys are not shipped games), for the server and
browser tests that play them: ``python tests/serve_toys.py serve --port ...``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from grognard import rulesets
from grognard.cli.main import main
from toy import Toy
from toy_orders import ToyOrders

if __name__ == "__main__":
    rulesets.register(Toy)
    rulesets.register(ToyOrders)
    sys.exit(main(sys.argv[1:]))
