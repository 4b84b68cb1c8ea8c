# cudalab - a CUDA teaching lab for the terminal.
#
#   make            build bin/cudalab, the exercise drivers and the lab's kernels
#   make run        set up (installing Debian packages if needed) and start the lab
#   make test       every test that needs no GPU (unit tests under sanitizers, e2e, format)
#   make test-gpu   the GPU suite (needs an NVIDIA GPU)
#   make deps       install the Debian packages the lab needs (or print the command)
#   make format     apply .clang-format
#
# Release objects go to build/rel, sanitized test objects to build/san.

SHELL := /bin/bash
.DEFAULT_GOAL := all

CC ?= cc
CUDA_HOME ?= $(firstword $(wildcard /usr/local/cuda) /usr)
NVCC ?= $(shell command -v nvcc 2>/dev/null || echo $(CUDA_HOME)/bin/nvcc)
CLANG_FORMAT ?= clang-format

DEB_PACKAGES := pkg-config libinih-dev libcjson-dev libsqlite3-dev libcriterion-dev \
                libncurses-dev libreadline-dev libmd4c-dev clang-format tmux

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -I. -isystem $(CUDA_HOME)/include -isystem /usr/include/cjson \
               $(WARN) -MMD -MP
REL_CFLAGS := $(BASE_CFLAGS) -O2 -g
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_CFLAGS := $(BASE_CFLAGS) -O1 -g -fno-omit-frame-pointer $(SAN_FLAGS)

LIBS := -linih -lcjson -lsqlite3 -lstdc++ -ldl -lm -lpthread
DRIVER_LIBS := -lcjson -ldl -lm -lpthread
TEST_LIBS := -lcriterion

CORE_SRC := $(sort $(wildcard lab/core/*.c))
COMMON_SRC := $(sort $(wildcard common/*.c))
CLI_SRC := $(sort $(wildcard lab/cli/*.c))
DRIVER_SRC := $(sort $(wildcard lab/drivers/*.c))
DRIVERS := $(notdir $(DRIVER_SRC:.c=))
TEST_SRC := $(sort $(wildcard tests/test-*.c))
TESTS := $(notdir $(TEST_SRC:.c=))
# kernels/X.cu -> build/libexec/cudalab/X.ptx (lab-kernels and each chapter's demo kernels)
KERNEL_PTX := $(patsubst kernels/%.cu,%.ptx,$(sort $(wildcard kernels/*.cu)))
FORMAT_SRC := $(sort $(wildcard lab/*/*.c lab/*/*.h common/*.c common/*.h tests/*.c tests/*.h))

# $(call objs,variant,sources)
objs = $(patsubst %.c,build/$(1)/obj/%.o,$(2))

.SECONDARY:
.PHONY: all run test test-unit test-e2e test-gpu deps format format-check clean

all: build/.deps-ok bin/cudalab $(DRIVERS:%=build/libexec/cudalab/%) \
     $(KERNEL_PTX:%=build/libexec/cudalab/%)

run: all
	@./bin/cudalab

# --- dependencies ----------------------------------------------------------
deps build/.deps-ok: Makefile
	@missing=""; for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing:$$missing"; \
	        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	    else \
	        echo "cudalab needs Debian packages that are not installed. Run:"; \
	        echo "    sudo apt-get install -y$$missing"; \
	        exit 1; \
	    fi; \
	fi; \
	test -x "$(NVCC)" || { echo "nvcc not found (looked on PATH and in $(CUDA_HOME)/bin): install the CUDA toolkit"; exit 1; }
	@mkdir -p build && touch build/.deps-ok

# --- release build ---------------------------------------------------------
build/rel/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) -c $< -o $@

build/rel/libcore.a: $(call objs,rel,$(CORE_SRC))
	@rm -f $@; ar rcs $@ $^
build/rel/libcommon.a: $(call objs,rel,$(COMMON_SRC))
	@rm -f $@; ar rcs $@ $^

bin/cudalab: $(call objs,rel,$(CLI_SRC)) build/rel/libcore.a build/rel/libcommon.a
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) -o $@ $^ $(LIBS)

build/libexec/cudalab/%: build/rel/obj/lab/drivers/%.o build/rel/libcommon.a build/rel/libcore.a
	@mkdir -p $(@D)
	$(CC) $(REL_CFLAGS) -o $@ $^ $(DRIVER_LIBS)

# The lab's own device code (L2 flush, copy; the chapters' demo kernels): PTX for
# the lowest target nvcc 13 supports, so the driver JITs it for whatever GPU it finds.
build/libexec/cudalab/%.ptx: kernels/%.cu
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=compute_75 -O3 -o $@ $<

# --- sanitized test build --------------------------------------------------
build/san/obj/%.o: %.c | build/.deps-ok
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -c $< -o $@

build/san/libcore.a: $(call objs,san,$(CORE_SRC))
	@rm -f $@; ar rcs $@ $^
build/san/libcommon.a: $(call objs,san,$(COMMON_SRC))
	@rm -f $@; ar rcs $@ $^

build/san/bin/cudalab: $(call objs,san,$(CLI_SRC)) build/san/libcore.a build/san/libcommon.a
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS)

build/san/libexec/cudalab/%: build/san/obj/lab/drivers/%.o build/san/libcommon.a build/san/libcore.a
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(DRIVER_LIBS)

build/san/libexec/cudalab/%.ptx: build/libexec/cudalab/%.ptx
	@mkdir -p $(@D)
	cp $< $@

build/san/tests/%: build/san/obj/tests/%.o build/san/libcommon.a build/san/libcore.a
	@mkdir -p $(@D)
	$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

SAN_ALL := build/san/bin/cudalab $(DRIVERS:%=build/san/libexec/cudalab/%) \
           $(KERNEL_PTX:%=build/san/libexec/cudalab/%) $(TESTS:%=build/san/tests/%)

# --- tests -----------------------------------------------------------------
# Every test gets the sanitized lab through these variables.
export CUDALAB_TEST_BIN := $(CURDIR)/build/san/bin/cudalab
export CUDALAB_DATADIR_TEST := $(CURDIR)
export CUDALAB_LIBEXECDIR_TEST := $(CURDIR)/build/san/libexec/cudalab
export ASAN_OPTIONS := detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS := print_stacktrace=1

test: all $(SAN_ALL)
	@$(MAKE) --no-print-directory format-check
	@tests/run-unit.sh $(TESTS:%=build/san/tests/%)
	@tests/e2e/run.sh

test-unit: $(SAN_ALL)
	@tests/run-unit.sh $(TESTS:%=build/san/tests/%)

test-e2e: all $(SAN_ALL)
	@tests/e2e/run.sh

test-gpu: all
	@tests/gpu/run.sh

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

format-check:
	@$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC) && echo "format: ok"

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
