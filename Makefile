# Thin wrappers around Scripts/: each installs missing system packages first.
.PHONY: demo test bench deps

demo:
	bash Scripts/demo.sh

test:
	bash Scripts/test.sh

bench:
	bash Scripts/bench.sh

deps:
	bash Scripts/deps.sh
