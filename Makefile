# The two commands of the README:
#   make run   -- the main job: demo workload on the bundled platform, three models
#   make test  -- build everything and run the whole test suite
# Both install missing Debian packages first (scripts/install-deps).
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all deps build run test bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/main-job $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bench/overhead.sh $(BUILD)

clean:
	rm -rf $(BUILD)
