"""The lesson-capture tests run in process: caches the capture writes (the reply model's marshal copy) go to a
folder of the test session, never to the developer's own forewarn data folder."""

import pytest


@pytest.fixture(autouse=True)
def _data_folder_of_the_session(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path_factory.getbasetemp() / "forewarn-data"))
