import os
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from desktop import Desktop, Mosquitto  # noqa: E402


@pytest.fixture
def broker():
    directory = tempfile.mkdtemp(prefix="liveactivities-pytest-broker-")
    broker = Mosquitto(directory)
    yield broker
    broker.stop()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def desktop(broker):
    desktop = Desktop(broker.url)
    yield desktop
    desktop.stop()
