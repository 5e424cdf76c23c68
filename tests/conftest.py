import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from grognard import rulesets
from toy import Toy

rulesets.register(Toy)
