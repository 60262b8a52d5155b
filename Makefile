# The two commands of the README:
#   make run   -- the main job: demo workload on the bundled platform, three models
#   make test  -- build everything and run the whole test suite
#                 (CTEST_ARGS="..." passes more arguments to ctest: -R, -LE)
# and: make install PREFIX=DIR (default /usr/local; relocatable, see README),
#      make deb (a Debian package, BUILD/hnm_VERSION_ARCH.deb).
# Both install missing Debian packages first (scripts/install-deps).
BUILD ?= build
JOBS  ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: all deps build run test bench install deb clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/main-job $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

bench: build
	@bench/overhead.sh $(BUILD)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

deb: build
	@cd $(BUILD) && cpack -G DEB

clean:
	rm -rf $(BUILD)
