# Thin wrappers around Scripts/: each installs missing system packages first.
.PHONY: demo test bench fuzz deps

demo:
	bash Scripts/demo.sh

test:
	bash Scripts/test.sh

fuzz:
	bash Scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)

bench:
	bash Scripts/bench.sh $(FILTER)

deps:
	bash Scripts/deps.sh
