"""Only what pyproject.toml cannot declare: the wheel carries pyspark_pykafka/worker_python.py's .pth
(Spark's Python workers run the driver's interpreter unless the user chose one). Editable installs
get it from scripts/setup.sh."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def _worker_python():  # by path: importing the package would import pyspark at build time
    spec = importlib.util.spec_from_file_location(
        "_worker_python", Path(__file__).parent / "pyspark_pykafka" / "worker_python.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithPth(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            wp = _worker_python()
            Path(self.build_lib, wp.PTH_NAME).write_text(wp.pth_line())

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        if not self.editable_mode:
            outputs.append(str(Path(self.build_lib, _worker_python().PTH_NAME)))
        return outputs


setup(cmdclass={"build_py": BuildPyWithPth})
