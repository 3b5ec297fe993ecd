# Runs firmware test functions inside the `micropython` interpreter.
#   micropython -X heapsize=128K tests/firmware/runner.py MODULE [FUNCTION ...]
# run from the repository root. Prints "PASS name" or "FAIL name" plus the traceback for
# each function and exits 1 if any failed. tests/firmware/mpy.py drives it from pytest.
import sys

sys.path.append(".")  # after MICROPYPATH: a precompiled firmware build comes first


def main(argv):
    module = __import__(argv[0], None, None, ["x"])
    names = argv[1:] or [n for n in dir(module) if n.startswith("test_")]
    failed = 0
    for name in names:
        try:
            getattr(module, name)()
            print("PASS", name)
        except Exception as e:  # report every failure, keep going
            failed += 1
            print("FAIL", name)
            sys.print_exception(e)
    sys.exit(1 if failed else 0)


main(sys.argv[1:])
