# lit configuration of ddtc's tests. Tests read like documentation:
#   RUN: %ddtc analyze %s | FileCheck %s
# Tests that run MPI say `REQUIRES: mpi` and compare with MPICH's answers.
import os
import lit.formats

config.name = "ddtc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".json", ".ddt", ".test"]
# test/Fuzz/corpus holds fuzzer inputs (some .json), not tests.
config.excludes = ["Inputs", "corpus", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
# The test tree, whichever part of it a suite runs.
test_root = os.path.dirname(__file__)
config.test_source_root = test_root
config.test_exec_root = config.ddtc_test_exec_root

# The MPI family of the preload libraries under test: MPICH runs every
# test; the Open MPI suite runs those of the preload libraries
# (test/Runtime) with Open MPI's libraries, programs and launcher. A test
# whose expectation holds for one family only says REQUIRES: mpich (the
# models of MPICH's engine behind forms and split sends).
config.available_features.add(config.mpi_family)
# The runtime's `_c` wrappers exist where the library has the `_c` calls.
if config.mpi_large_count:
    config.available_features.add("mpi-large-count")
# And its MPI 4 persistent collectives where it has them.
if config.mpi4_calls:
    config.available_features.add("mpi4-calls")
# The family's name, e.g. as a FileCheck prefix for what differs by family.
config.substitutions.append(("%mpi-family", config.mpi_family))
if config.mpi_family == "openmpi":
    config.name = "ddtc-openmpi"
    config.test_source_root = os.path.join(test_root, "Runtime")
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"

config.environment["PATH"] = os.pathsep.join(
    [config.ddtc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

# The runtime measures its settings at the first MPI_Init with kernels and
# stores them in the user's cache (docs/runtime.md, "Settings"). Tests run
# with the fixed settings of Inputs/rt-settings.conf unless they name their
# own, never with the user's store nor a measurement: the tests of those
# (rt-store.test) unset DDTC_RT_CONFIG and turn the measurement on with a
# store in their %t.
config.environment["DDTC_RT_CONFIG"] = os.path.join(test_root, "Inputs", "rt-settings.conf")
config.environment["DDTC_RT_CALIBRATE"] = "off"
config.environment["DDTC_CACHE"] = os.path.join(config.test_exec_root, "empty-cache")
# Nor do they compile kernels into it while they run (shape kernels on
# would): what one test compiled, the next would find. rt-compile.test
# compiles into a cache of its own.
config.environment["DDTC_CACHE_COMPILE"] = "off"

# Files of another owner, which the runtime must refuse to load, can only be
# made by root.
if os.geteuid() == 0:
    config.available_features.add("root")

# A -DDDTC_SANITIZE build (docs/testing.md): a report fails the test. Leaks
# are not reported (MPICH and Clang keep their allocations for the life of
# the process), and the preloaded libraries, instrumented, need the
# sanitizer runtimes loaded before them in programs that are not.
sanitizer_preload = ""
if config.sanitize:
    import subprocess
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    runtimes = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run([config.cxx_compiler, "-print-file-name=" + name],
                              capture_output=True, text=True).stdout.strip()
        if os.path.isabs(path):
            runtimes.append(path)
    sanitizer_preload = ":".join(runtimes) + ":" if runtimes else ""

# The fuzz targets (test/Fuzz), which corpora.test runs on their corpora.
config.substitutions.append(("%fuzz-bin", os.path.join(config.ddtc_obj_root, "test", "Fuzz")))

# %ddtc-oracle before %ddtc: lit substitutes in order, and the longer name
# must win.
if config.have_mpi:
    config.available_features.add("mpi")
    config.substitutions.append(("%ddtc-oracle", os.path.join(config.ddtc_mpi_test_dir, "ddtc-oracle" + config.ddtc_tool_suffix)))
    config.substitutions.append(("%ddtc-normal-oracle", os.path.join(config.ddtc_mpi_test_dir, "ddtc-normal-oracle")))
    # The communication benchmark (tools/ddtc-bench), an MPI program.
    config.substitutions.append(("%ddtc-bench", config.ddtc_bench))
    # The MPI program behind `ddtc analyze --measure` (tools/ddtc-measure).
    config.substitutions.append(("%ddtc-measure", config.ddtc_measure))
if config.have_mpi:
    # The trace library (lib/Runtime) and the helper of its tests
    # (test/Runtime/trace-check.cpp).
    # Before the installed libraries' paths (rt-halo.test): empty unless
    # sanitized.
    config.substitutions.append(("%sanitizer-preload", sanitizer_preload))
    # The libraries' file names (before their paths, whose names are
    # prefixes of these), for the installed copies (rt-halo.test).
    config.substitutions.append(("%ddtc-trace-lib-name", os.path.basename(config.ddtc_trace_lib)))
    config.substitutions.append(("%ddtc-rt-lib-name", os.path.basename(config.ddtc_rt_lib)))
    config.substitutions.append(("%ddtc-trace-lib", sanitizer_preload + config.ddtc_trace_lib))
    config.substitutions.append(("%ddtc-rt-lib", sanitizer_preload + config.ddtc_rt_lib))
    # The other MPI family's libraries, where both families are built.
    if config.ddtc_foreign_rt_lib != config.ddtc_rt_lib:
        config.available_features.add("foreign-family")
        config.substitutions.append(("%ddtc-foreign-trace-lib", config.ddtc_foreign_trace_lib))
        config.substitutions.append(("%ddtc-foreign-rt-lib", config.ddtc_foreign_rt_lib))
    # The runtime's calibration (tools/ddtc-rt-calibrate), an MPI program.
    config.substitutions.append(("%ddtc-rt-calibrate", config.ddtc_rt_calibrate))
    config.substitutions.append(("%rt-exchange", os.path.join(config.ddtc_runtime_test_dir, "rt-exchange" + config.ddtc_tool_suffix)))
    config.substitutions.append(("%rt-collectives", os.path.join(config.ddtc_runtime_test_dir, "rt-collectives" + config.ddtc_tool_suffix)))
    config.substitutions.append(("%rt-collective-forms", os.path.join(config.ddtc_runtime_test_dir, "rt-collective-forms" + config.ddtc_tool_suffix)))
    config.substitutions.append(("%rt-onesided", os.path.join(config.ddtc_runtime_test_dir, "rt-onesided" + config.ddtc_tool_suffix)))
    config.substitutions.append(("%trace-check", os.path.join(config.ddtc_runtime_test_dir, "trace-check" + config.ddtc_tool_suffix)))
    # The example applications (examples/, built with MPI).
    config.substitutions.append(("%examples", config.ddtc_examples_dir))
    # Traced programs also run on three ranks (before %mpiexec).
    config.substitutions.append(("%mpiexec-n3", config.mpiexec + " -n 3"))
if config.have_mpi:
    # The checker of emitted code (emit-check.cpp), plain and sanitized, and
    # the script that compiles emitted code into a library it loads.
    config.substitutions.append(("%ddtc-emit-check-san", os.path.join(config.ddtc_mpi_test_dir, "ddtc-emit-check-san")))
    config.substitutions.append(("%ddtc-emit-check", os.path.join(config.ddtc_mpi_test_dir, "ddtc-emit-check")))
    config.substitutions.append(("%emit-build", "sh " + os.path.join(test_root, "MPI", "emit-build.sh")))
    # The random descriptions those tests check (random-corpus.cpp).
    config.substitutions.append(("%ddtc-random-corpus", os.path.join(config.ddtc_mpi_test_dir, "ddtc-random-corpus")))
# The trees themselves, for the tests of the CMake package (test/Package),
# which install from this build and configure projects against it.
config.substitutions.append(("%ddtc-obj-root", config.ddtc_obj_root))
config.substitutions.append(("%ddtc-src-root", config.ddtc_src_root))
config.substitutions.append(("%ddtc", os.path.join(config.ddtc_tools_dir, "ddtc")))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%corpus", config.corpus_dir))
if config.have_mpi:
    # One rank is enough: the oracle asks MPICH about types, it does not
    # communicate. Root is allowed to run MPICH's hydra without flags. Two
    # ranks (before %mpiexec, the longer name first) for the programs that
    # do communicate (test/Package).
    config.substitutions.append(("%mpiexec-n2", config.mpiexec + " -n 2"))
    # Two ranks as a user launches them as root under Open MPI: consent on
    # the command line, none in the environment the ranks inherit.
    root_consent = (config.mpi_family == "openmpi" and os.geteuid() == 0)
    config.substitutions.append(("%mpiexec-root-n2",
        "env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM "
        + config.mpiexec + " --allow-run-as-root -n 2" if root_consent
        else config.mpiexec + " -n 2"))
    # The launcher alone, for MPMD launches ("-n 1 A : -n 1 B").
    config.substitutions.append(("%mpiexec-mpmd", config.mpiexec))
    # What DDTC_RT_FORMS=sends turns into: the forms are chosen by the
    # model of MPICH's engine, and off under another library.
    config.substitutions.append(("%rt-forms-sends", "sends" if config.mpi_family == "mpich" else "off"))
    # The reasons a type is left to MPI that a test of every type allows
    # besides contiguity: ddtc lays types out with MPICH's rules, and the
    # runtime leaves a type that another library lays out otherwise to it.
    config.substitutions.append(("%rt-allowed-reasons",
        "contiguous" if config.mpi_family == "mpich"
        else "contiguous\\|the MPI library lays out"))
    config.substitutions.append(("%mpiexec", config.mpiexec + " -n 1"))
    config.substitutions.append(("%mpicc", config.mpi_c_compiler))
    # Fortran programs (test/Runtime/*-fortran*.test), with the family's
    # wrapper of gfortran: -cpp for the choice of binding, -fwrapv for their
    # hash, and -fallow-argument-mismatch for mpif.h, which declares no
    # interfaces (gfortran 10 and later reject its calls without it).
    import shutil
    if config.mpi_fortran_compiler and shutil.which("gfortran"):
        config.available_features.add("gfortran")
        config.substitutions.append(("%mpifort", config.mpi_fortran_compiler +
            " -cpp -fwrapv -fallow-argument-mismatch"))

# The source front end (lib/Source): its tests read C and C++ with the mock
# mpi.h of test/Source/Inputs, and the end-to-end ones with MPICH's header.
if config.have_source:
    config.available_features.add("source")
    config.substitutions.append(
        ("%mock-mpi", "-I" + os.path.join(test_root, "Source", "Inputs")))
    config.substitutions.append(
        ("%mpi-include", " ".join("-I" + d for d in config.mpi_include_dirs.split(";") if d)))
    config.substitutions.append(("%mpicxx", config.mpi_cxx_compiler))
    import shutil
    if shutil.which("clang-apply-replacements-14"):
        config.available_features.add("clang-apply-replacements")

import sys
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%expect-exit", "sh " + os.path.join(test_root, "Inputs", "expect-exit.sh")))

# Compilers for the tests that compile emitted code (test/CodeGen).
import shutil
for feature, name in [("gcc", "g++"), ("clang", "clang++-14")]:
    if shutil.which(name):
        config.available_features.add(feature)
config.substitutions.append(("%cxx", "g++"))
config.substitutions.append(("%clangxx", "clang++-14"))
config.substitutions.append(("%cc", "gcc"))
