# Runs every gtest executable named *Tests under the build's unittests/.
import os
import lit.formats

config.name = "ddtc-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = os.path.join(config.ddtc_obj_root, "unittests")
config.test_exec_root = config.test_source_root
