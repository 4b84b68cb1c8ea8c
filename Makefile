# cudalab - a CUDA teaching lab for the terminal.
#
#   make            build bin/cudalab, the exercise drivers and the lab's kernels: in parallel
#                   (one job per core unless -j is given), one line per step ("CC lab/x.c");
#                   make V=1 prints the full commands
#   make run        set up (installing Debian packages if needed) and start the lab
#   make test       every test that needs no GPU (format, the layers' arrows, unit tests under
#                   sanitizers, e2e, the package)
#   make fuzz       each fuzz target of tests/fuzz/ for FUZZ_SECONDS (default 60; make test: 3),
#                   or until FUZZ_RUNS inputs if that comes first (docs/bench/fuzz.md)
#   make test-gpu   the GPU suite (needs an NVIDIA GPU); make test-gpu-install: the
#                   installed copy and the package on the GPU
#   make deps       install the Debian packages the lab needs (or print the command) and
#                   generate the ko_KR and zh_CN UTF-8 locales (as root)
#   make pot        extract the C code's messages into po/cudalab.pot and merge it into po/*.po;
#                   make po-check: every .po complete (no untranslated or fuzzy message)
#   make format     apply .clang-format
#   make install    PREFIX=/usr/local (default) DESTDIR= : bin/cudalab, libexec/cudalab/,
#                   share/cudalab/, the man page and bash/zsh completion; make uninstall
#   make deb        a Debian package, built with dpkg-buildpackage from a copy of the
#                   tree, into build/deb/
#
# Release objects go to build/rel, sanitized test objects to build/san.

SHELL := /bin/bash
.DEFAULT_GOAL := all

# A job per core unless the user gave -j (or -jN): a first build compiles ~140 files.  Only at
# the top: a sub-make shares its parent's jobs.
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
# One line per step, the compiler's warnings still shown; V=1: the full command lines.
# $(call say,STEP,WHAT) starts a recipe line: it prints "  STEP    WHAT" and hides the command.
ifeq ($(V),1)
say =
else
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

CC ?= cc
CUDA_HOME ?= $(firstword $(wildcard /usr/local/cuda) /usr)
NVCC ?= $(shell command -v nvcc 2>/dev/null || echo $(CUDA_HOME)/bin/nvcc)
CLANG_FORMAT ?= clang-format
PYTHON ?= python3
TOOLS_DIR := $(CURDIR)/tools/cuda
CUDA_TOOLS := cuobjdump nvdisasm
CUDA_TOOLS_PIP := 'nvidia-cuda-cuobjdump==13.2.*' 'nvidia-cuda-nvdisasm==13.2.*'

# DEB_PACKAGES: everything `make deps` installs.  `make` itself checks all but the
# packaging and install-test tools (DEB_TEST_PACKAGES), which `make test` checks.
# bubblewrap (the sandbox) and Slurm (batch --slurm) are optional at run time; their tests need them.
# gnumeric: its ssconvert opens the gradebook as a spreadsheet (test-gradebook-spreadsheet.sh).
# clang and libclang-rt-14-dev: the fuzz targets (libFuzzer with ASan and UBSan, tests/fuzz/).
DEB_TEST_PACKAGES := debhelper dpkg-dev fakeroot man-db groff-base zsh bubblewrap \
                     slurmctld slurmd slurm-client munge gnumeric clang libclang-rt-14-dev
DEB_PACKAGES := pkg-config libinih-dev libcjson-dev libsqlite3-dev libcriterion-dev \
                libncurses-dev libreadline-dev libmd4c-dev nettle-dev clang-format tmux gettext \
                $(DEB_TEST_PACKAGES)
DEB_BUILD_PACKAGES := $(filter-out $(DEB_TEST_PACKAGES),$(DEB_PACKAGES))

VERSION := $(shell sed -n 's/^\#define LAB_VERSION "\(.*\)"/\1/p' lab/cli/main.c)
DEFAULT_ARCH := $(shell sed -n 's/^\#define LAB_DEFAULT_ARCH "\(.*\)"/\1/p' lab/build/toolchain.h)

# Installed layout (docs/design/architecture.md): the lab finds share/cudalab and libexec/cudalab next to
# its bin/, so only PREFIX moves them; the man page and completions go where man and
# the shells look.
PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
# The package build checks its Build-Depends itself (NO_DEPS_CHECK=1 from debian/rules).
DEPS_STAMP := $(if $(NO_DEPS_CHECK),,build/.deps-ok)

# -Werror in the test build (make test, CI) only: a newer compiler's new warning must not stop a
# student's build.
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -I. -isystem $(CUDA_HOME)/include -isystem /usr/include/cjson \
               $(WARN) -MMD -MP
# CPPFLAGS, CFLAGS and LDFLAGS from the environment (dpkg-buildflags' hardening) go
# into the release build.
REL_CFLAGS := $(BASE_CFLAGS) -O2 -g $(CPPFLAGS) $(CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_CFLAGS := $(BASE_CFLAGS) -Werror -O1 -g -fno-omit-frame-pointer $(SAN_FLAGS)

LIBS := -linih -lcjson -lsqlite3 -lnettle -lstdc++ -ldl -lm -lpthread
UI_LIBS := -lncursesw -ltinfo -lmd4c -lreadline
DRIVER_LIBS := -linih -lcjson -ldl -lm -lpthread
TEST_LIBS := -lcriterion

# The libraries, bottom up (docs/design/architecture.md): util is all that the simulator, the
# drivers' harness and the grader share; the grader never links the harness or the simulator.
UTIL_SRC := $(sort $(wildcard lab/util/*.c))
SIM_SRC := $(sort $(wildcard lab/sim/*.c))
HARNESS_SRC := $(filter-out common/main.c,$(sort $(wildcard common/*.c)))
# the performance model's arithmetic: the grader's, and the demo drivers' on the simulator
MODEL_SRC := $(sort $(wildcard lab/model/*.c))
GRADER_DIRS := model catalog build platform grade instruments batch report
GRADER_SRC := $(sort $(wildcard $(GRADER_DIRS:%=lab/%/*.c)))
CLI_SRC := $(sort $(wildcard lab/cli/*.c lab/menu/*.c lab/shell/*.c))
# The driver program: the harness's main, one file per family, one per chapter demo.
DRIVER_SRC := common/main.c $(sort $(wildcard lab/drivers/*.c lab/demos/*.c))
DRIVER := cudalab-driver
TEST_SRC := $(sort $(wildcard tests/test-*.c))
TESTS := $(notdir $(TEST_SRC:.c=))
# kernels/X.cu -> build/libexec/cudalab/X.ptx (lab-kernels and each chapter's demo kernels)
KERNEL_PTX := $(patsubst kernels/%.cu,%.ptx,$(sort $(wildcard kernels/*.cu)))
FORMAT_SRC := $(sort $(wildcard common/*.c common/*.h lab/*/*.c lab/*/*.h \
                                 tests/*.c tests/*.h tests/tools/*.c tests/fuzz/*.c tests/fuzz/*.h))

# $(call objs,variant,sources)
objs = $(patsubst %.c,build/$(1)/obj/%.o,$(2))

.SECONDARY:
.PHONY: pot po-check locales all run test test-unit test-e2e fuzz test-gpu bench-reduce test-gpu-install test-package deps cuda-tools format \
        format-check clean install uninstall deb

# the languages of the messages: one po/LANG.po each (docs/design/i18n.md)
PO_LANGS := $(basename $(notdir $(wildcard po/*.po)))
MO_FILES := $(PO_LANGS:%=build/locale/%/LC_MESSAGES/cudalab.mo)

GENERATED := build/gen/cudalab.1 build/gen/cudalab.bash build/gen/_cudalab

all: $(DEPS_STAMP) bin/cudalab build/libexec/cudalab/$(DRIVER) \
     $(KERNEL_PTX:%=build/libexec/cudalab/%) $(GENERATED) $(MO_FILES)

run: all
	@./bin/cudalab

# --- dependencies ----------------------------------------------------------
# $(call need_packages,LIST): install (as root) or name the missing ones.
define need_packages
	@missing=""; for p in $(1); do \
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
	fi
endef

deps build/.deps-ok: Makefile
	$(call need_packages,$(if $(filter deps,$@),$(DEB_PACKAGES),$(DEB_BUILD_PACKAGES)))
	@test -x "$(NVCC)" || { echo "nvcc not found (looked on PATH and in $(CUDA_HOME)/bin): install the CUDA toolkit"; exit 1; }
	@$(MAKE) --no-print-directory cuda-tools
	@$(if $(filter deps,$@),$(MAKE) --no-print-directory locales,:)
	@mkdir -p build && touch build/.deps-ok

# The Korean and Chinese UTF-8 locales, for LANG=ko_KR.UTF-8 and LANG=zh_CN.UTF-8 (the lab
# also works without them: LANG=C.UTF-8 LANGUAGE=ko).  Only root can add them, and only with
# Debian's locales package (locale-gen); otherwise it says what to do.
GEN_LOCALES := ko_KR.UTF-8 zh_CN.UTF-8
locales:
	@have=$$(locale -a 2>/dev/null | tr 'A-Z' 'a-z' | sed 's/utf-8/utf8/'); missing=""; \
	for l in $(GEN_LOCALES); do \
	    n=$$(echo $$l | tr 'A-Z' 'a-z' | sed 's/utf-8/utf8/'); \
	    grep -qx "$$n" <<<"$$have" || missing="$$missing $$l"; \
	done; \
	if [ -z "$$missing" ]; then echo "locales: $(GEN_LOCALES) are there"; \
	elif [ "$$(id -u)" = 0 ] && command -v locale-gen >/dev/null && [ -f /etc/locale.gen ]; then \
	    for l in $$missing; do \
	        grep -q "^$$l UTF-8" /etc/locale.gen || echo "$$l UTF-8" >>/etc/locale.gen; \
	    done; \
	    echo "locales: generating$$missing"; locale-gen >/dev/null || exit 1; \
	else \
	    echo "locales:$$missing not generated (needs root and the locales package); the lab"; \
	    echo "    still speaks Korean and Chinese with LANG=C.UTF-8 LANGUAGE=ko (or zh_CN). To add them:"; \
	    echo "    sudo apt-get install -y locales && sudo sed -i 's/^# *\\(ko_KR.UTF-8\\|zh_CN.UTF-8\\)/\\1/' /etc/locale.gen && sudo locale-gen"; \
	fi

# The package and install tests' tools, checked by make test, not by make.
build/.deps-test-ok: Makefile
	$(call need_packages,$(DEB_TEST_PACKAGES))
	@mkdir -p build && touch $@

# cuobjdump and nvdisasm (cudalab inspect) where the toolkit has none, e.g. Debian's:
# NVIDIA's PyPI wheels, unpacked with `pip install --target` into tools/cuda (no
# virtualenv, no root, no terminal needed), their binaries linked into
# tools/cuda/bin, where the lab looks after PATH and the toolkit.
cuda-tools:
	@for t in $(CUDA_TOOLS); do \
	    command -v $$t >/dev/null || test -x "$(CUDA_HOME)/bin/$$t" || test -x "$(dir $(NVCC))$$t" || \
	        test -x "$(TOOLS_DIR)/bin/$$t" || missing="$$missing $$t"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "installing$$missing from PyPI into $(TOOLS_DIR)"; \
	    $(PYTHON) -m pip --version >/dev/null 2>&1 || { echo "pip is missing: apt-get install python3-pip"; exit 1; }; \
	    PIP_ROOT_USER_ACTION=ignore $(PYTHON) -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
	        --target "$(TOOLS_DIR)/pip" $(CUDA_TOOLS_PIP) || exit 1; \
	    mkdir -p "$(TOOLS_DIR)/bin"; \
	    for t in $(CUDA_TOOLS); do \
	        f=$$(find "$(TOOLS_DIR)/pip" -path "*/bin/$$t" -type f | head -1); \
	        test -n "$$f" || { echo "the wheel has no $$t"; exit 1; }; \
	        ln -sf "$$f" "$(TOOLS_DIR)/bin/$$t"; \
	    done; \
	fi

# --- release build ---------------------------------------------------------
# the simulator's interpreter loops: -O3 vectorises the 32-lane loops (docs/bench/sim.md)
build/rel/obj/lab/sim/%.o: REL_CFLAGS += -O3

build/rel/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)$(CC) $(REL_CFLAGS) -c $< -o $@

build/rel/libutil.a: $(call objs,rel,$(UTIL_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/rel/libsim.a: $(call objs,rel,$(SIM_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/rel/libharness.a: $(call objs,rel,$(HARNESS_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/rel/libmodel.a: $(call objs,rel,$(MODEL_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/rel/libgrader.a: $(call objs,rel,$(GRADER_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^

bin/cudalab: $(call objs,rel,$(CLI_SRC)) build/rel/libgrader.a build/rel/libutil.a
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(UI_LIBS)

DRIVER_LIBS_REL := build/rel/libharness.a build/rel/libmodel.a build/rel/libsim.a build/rel/libutil.a
build/libexec/cudalab/$(DRIVER): $(call objs,rel,$(DRIVER_SRC)) $(DRIVER_LIBS_REL)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(DRIVER_LIBS)

# kernel-run: any module's kernels on either backend with generic arguments, for the
# simulator's differential tests (tests/gpu/record-sim.sh, tests/e2e/test-sim-diff.sh)
build/tools/kernel-run: build/rel/obj/tests/tools/kernel-run.o $(DRIVER_LIBS_REL)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(DRIVER_LIBS)

# The performance model's arithmetic alone, for tests/model/fit.py (ctypes): the fit runs the
# very code the lab grades with.
build/tools/libcudalab-model.so: lab/model/model.c lab/model/model.h lab/model/model.def
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(REL_CFLAGS) -fPIC -shared -o $@ lab/model/model.c -lm

# sim-call: PTX loaded on the simulator, one kernel run with explicit arguments, for
# the harness of outside code (tests/sim-samples.sh)
build/tools/sim-call: build/rel/obj/tests/tools/sim-call.o $(DRIVER_LIBS_REL)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(REL_CFLAGS) $(LDFLAGS) -o $@ $^ $(DRIVER_LIBS)

# The lab's own device code (L2 flush, copy; the chapters' demo kernels): PTX for
# the lowest target nvcc 13 supports, so the driver JITs it for whatever GPU it finds.
build/libexec/cudalab/%.ptx: kernels/%.cu common/common.h
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=compute_75 -O3 -I. -o $@ $<

# --- messages (GNU gettext; docs/design/i18n.md) ------------------------------
# po/cudalab.pot: the marked strings of the lab's own C code, and of the drivers only their
# descriptions of a wrong result (below); po/LANG.po: one language;
# build/locale/LANG/LC_MESSAGES/cudalab.mo: what the lab reads.
# The drivers' descriptions of a wrong result (lab_finding_detail's format, lab/util/fmtargs.h):
# the report carries them in English, and the grader shows them translated.
# The simulator's findings (N_() in lab/sim), the no-GPU reasons (lab_err_set_msg in the CUDA
# backend) and the demos' sections and notes travel the same way.
I18N_SRC := $(sort $(UTIL_SRC) $(GRADER_SRC) $(CLI_SRC) $(wildcard lab/drivers/*.c) \
                   common/driver.c common/dev-cuda.c $(wildcard lab/sim/*.c) \
                   $(wildcard lab/demos/*.c) \
                   $(wildcard $(GRADER_DIRS:%=lab/%/*.h) lab/cli/*.h lab/menu/*.h))
# the command table's help lines are the last argument of its declaration macros (lab/cli/cli.h)
XGETTEXT_FLAGS := --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ \
                  --keyword=ngettext:1,2 --keyword=LAB_CLI_ARG:4 --keyword=LAB_CLI_OPT:2 \
                  --keyword=LAB_CLI_OPT_VALUE:4 --keyword=LAB_CLI_OPT_OCCURS:5 \
                  --keyword=LAB_CLI_ARG_CHOICE:4 --keyword=LAB_CLI_OPT_NUMBER:5 \
                  --keyword=LAB_CLI_OPT_CHOICE:4 --keyword=lab_finding_detail:2 \
                  --flag=lab_finding_detail:2:c-format --keyword=lab_err_set_msg:3 \
                  --flag=lab_err_set_msg:3:c-format --keyword=lab_demodrv_note:2 \
                  --flag=lab_demodrv_note:2:c-format --add-comments=TRANSLATORS: --sort-by-file \
                  --package-name=cudalab --package-version=$(VERSION) \
                  --msgid-bugs-address=cudalab@example.org

build/locale/%/LC_MESSAGES/cudalab.mo: po/%.po
	@mkdir -p $(@D)
	$(call say,MSGFMT,$<)msgfmt --check -o $@.tmp $< && mv $@.tmp $@

pot:
	$(call say,XGETTEXT,po/cudalab.pot)xgettext $(XGETTEXT_FLAGS) -o po/cudalab.pot $(I18N_SRC)
	@for l in $(PO_LANGS); do msgmerge --quiet --update --backup=none --no-fuzzy-matching \
	    po/$$l.po po/cudalab.pot && msgattrib --no-obsolete -o po/$$l.po po/$$l.po || exit 1; done

# Every .po complete: no untranslated or fuzzy message, and none missing against the strings
# the code marks today (a fresh extraction, so a forgotten `make pot` fails too).
po-check:
	@mkdir -p build/po && xgettext $(XGETTEXT_FLAGS) -o build/po/current.pot $(I18N_SRC)
	@ok=1; for l in $(PO_LANGS); do \
	    stats=$$(LC_ALL=C msgfmt --check --statistics -o /dev/null po/$$l.po 2>&1) || ok=0; \
	    echo "po/$$l.po: $$stats"; \
	    grep -Eq 'fuzzy|untranslated' <<<"$$stats" && ok=0; \
	    LC_ALL=C msgcmp po/$$l.po build/po/current.pot 2>&1 | head -5; \
	    LC_ALL=C msgcmp po/$$l.po build/po/current.pot >/dev/null 2>&1 || ok=0; \
	done; \
	if [ $$ok = 1 ]; then echo "po: ok"; else echo "po: incomplete (make pot, then translate)"; exit 1; fi

# --- man page and completion, from the command table ----------------------
build/gen/commands.tsv: bin/cudalab
	@mkdir -p $(@D)
	$(call say,GEN,$@)./bin/cudalab --dump-commands >$@.tmp && mv $@.tmp $@
build/gen/cudalab.1: build/gen/commands.tsv lab/cli/cudalab.1.in lab/cli/gen-man.sh
	$(call say,GEN,$@)lab/cli/gen-man.sh $(VERSION) $(DEFAULT_ARCH) lab/cli/cudalab.1.in <$< >$@.tmp && mv $@.tmp $@
build/gen/cudalab.bash: build/gen/commands.tsv lab/cli/gen-completion.sh
	$(call say,GEN,$@)lab/cli/gen-completion.sh bash <$< >$@.tmp && mv $@.tmp $@
build/gen/_cudalab: build/gen/commands.tsv lab/cli/gen-completion.sh
	$(call say,GEN,$@)lab/cli/gen-completion.sh zsh <$< >$@.tmp && mv $@.tmp $@

# --- install ---------------------------------------------------------------
INSTALL_DATA_DIRS := exercises solutions kernels docs
I := $(DESTDIR)$(PREFIX)

install: all
	install -d $(I)/bin $(I)/libexec/cudalab $(I)/share/cudalab $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 bin/cudalab $(I)/bin/cudalab
	install -m 755 build/libexec/cudalab/$(DRIVER) $(I)/libexec/cudalab/
	install -m 644 $(KERNEL_PTX:%=build/libexec/cudalab/%) $(I)/libexec/cudalab/
	rm -rf $(addprefix $(I)/share/cudalab/,$(INSTALL_DATA_DIRS) common)
	cp -R --no-preserve=ownership $(INSTALL_DATA_DIRS) $(I)/share/cudalab/
	# the header the kernels' sources include (#include "common/common.h")
	install -D -m 644 common/common.h $(I)/share/cudalab/common/common.h
	# raw GPU logs (docs/h100/*.txt) are evidence for the source tree, not documentation
	rm -f $(I)/share/cudalab/docs/h100/*.txt
	chmod -R u=rwX,go=rX $(I)/share/cudalab
	install -m 644 build/gen/cudalab.1 $(DESTDIR)$(MANDIR)/man1/cudalab.1
	install -m 644 build/gen/cudalab.bash $(DESTDIR)$(BASHCOMPDIR)/cudalab
	install -m 644 build/gen/_cudalab $(DESTDIR)$(ZSHCOMPDIR)/_cudalab
	for l in $(PO_LANGS); do \
	    install -d $(I)/share/locale/$$l/LC_MESSAGES && \
	    install -m 644 build/locale/$$l/LC_MESSAGES/cudalab.mo $(I)/share/locale/$$l/LC_MESSAGES/ || exit 1; \
	done

uninstall:
	rm -f $(I)/bin/cudalab $(DESTDIR)$(MANDIR)/man1/cudalab.1 \
	    $(DESTDIR)$(BASHCOMPDIR)/cudalab $(DESTDIR)$(ZSHCOMPDIR)/_cudalab
	rm -rf $(I)/libexec/cudalab $(I)/share/cudalab
	rm -f $(PO_LANGS:%=$(I)/share/locale/%/LC_MESSAGES/cudalab.mo)

# --- Debian package ----------------------------------------------------------
# dpkg-buildpackage writes its results next to the source folder, so it runs on
# a copy of the tree (no build output) in build/deb/; its log is build/deb/build.log.
# It always rebuilds (about 10 s on 2 cores).
DEB_ARCH = $(shell dpkg --print-architecture)
DEB_FILE = build/deb/cudalab_$(VERSION)_$(DEB_ARCH).deb

deb:
	@rm -rf build/deb && mkdir -p build/deb/cudalab-$(VERSION)
	@tar -c --exclude=./build --exclude=./bin --exclude=./.git . | tar -x -C build/deb/cudalab-$(VERSION)
	@echo "dpkg-buildpackage (log: build/deb/build.log)"
	@cd build/deb/cudalab-$(VERSION) && \
	    DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
	    { tail -n 40 ../build.log; exit 1; }
	@ls build/deb/*.deb

# --- sanitized test build --------------------------------------------------
build/san/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$< (sanitized))$(CC) $(SAN_CFLAGS) -c $< -o $@

build/san/libutil.a: $(call objs,san,$(UTIL_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/san/libsim.a: $(call objs,san,$(SIM_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/san/libharness.a: $(call objs,san,$(HARNESS_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/san/libmodel.a: $(call objs,san,$(MODEL_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^
build/san/libgrader.a: $(call objs,san,$(GRADER_SRC))
	$(call say,AR,$@)rm -f $@; ar rcs $@ $^

build/san/bin/cudalab: $(call objs,san,$(CLI_SRC)) build/san/libgrader.a build/san/libutil.a
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS) $(UI_LIBS)

DRIVER_LIBS_SAN := build/san/libharness.a build/san/libmodel.a build/san/libsim.a build/san/libutil.a
build/san/libexec/cudalab/$(DRIVER): $(call objs,san,$(DRIVER_SRC)) $(DRIVER_LIBS_SAN)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(SAN_CFLAGS) -o $@ $^ $(DRIVER_LIBS)
build/san/tools/kernel-run: build/san/obj/tests/tools/kernel-run.o $(DRIVER_LIBS_SAN)
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(SAN_CFLAGS) -o $@ $^ $(DRIVER_LIBS)

build/san/libexec/cudalab/%.ptx: build/libexec/cudalab/%.ptx
	@mkdir -p $(@D)
	$(call say,CP,$@)cp $< $@

build/san/tests/%: build/san/obj/tests/%.o build/san/libgrader.a build/san/libharness.a \
                   build/san/libmodel.a build/san/libsim.a build/san/libutil.a
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

# Unit tests of front-end modules link those modules too.
build/san/tests/test-doc: build/san/obj/tests/test-doc.o build/san/obj/lab/menu/doc.o \
                          build/san/libgrader.a build/san/libutil.a
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(SAN_CFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS) -lmd4c

# NVIDIA's occupancy calculator (cuda_occupancy.h, C++) as test-occupancy's oracle
build/san/tests/occ-oracle: tests/tools/occ-oracle.cpp
	@mkdir -p $(@D)
	$(call say,CXX,$@)$(CXX) -O1 -isystem $(CUDA_HOME)/include -o $@ $<

# --- fuzz targets ------------------------------------------------------------
# tests/fuzz/fuzz-T.c: one reader of input the lab did not write (PTX, manifests, questions, driver
# reports, ncu's CSV) or writer of it (the gradebook, of the class's names and logs), built with clang's libFuzzer under ASan and UBSan from objects of its own.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -I. -isystem /usr/include/cjson $(WARN) -MMD -MP -O1 -g \
               -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_TARGETS := ptx constraints manifest questions runreport ncu translation gradebook
FUZZ_SRC_ptx := $(SIM_SRC)
FUZZ_SRC_constraints := lab/build/constraints.c lab/build/ptxmap.c lab/build/rules.c
FUZZ_CATALOG_SRC := lab/catalog/catalog.c lab/catalog/family.c lab/catalog/figures.c \
                    lab/catalog/localize.c lab/catalog/translation.c
FUZZ_SRC_manifest := $(FUZZ_CATALOG_SRC)
FUZZ_SRC_questions := $(FUZZ_CATALOG_SRC) lab/catalog/questions.c
FUZZ_SRC_translation := $(FUZZ_CATALOG_SRC) lab/catalog/questions.c
FUZZ_SRC_runreport := lab/grade/runreport.c
FUZZ_SRC_ncu := lab/instruments/ncu.c
FUZZ_SRC_gradebook := lab/batch/gradebook.c lab/batch/batchid.c
FUZZ_BINS := $(FUZZ_TARGETS:%=build/fuzz/fuzz-%)

build/fuzz/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$< (fuzz))$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

define fuzz_target
build/fuzz/fuzz-$(1): $(call objs,fuzz,tests/fuzz/fuzz-$(1).c tests/fuzz/fuzz.c $(UTIL_SRC) $(FUZZ_SRC_$(1)))
	$$(call say,LINK,$$@)$$(FUZZ_CC) -fsanitize=fuzzer $$(FUZZ_SAN) -o $$@ $$^ $$(LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_target,$(t))))

fuzz: $(FUZZ_BINS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) tests/fuzz/run.sh $(FUZZ_TARGETS)

# The simulator's unit tests run kernels that nvcc builds here.
build/tests/sim-kernels.ptx: tests/sim/kernels.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... kernels of the constructs learned after the course's corpus (tests/test-sim.c) ...
build/tests/sim-constructs.ptx: tests/sim/constructs.cu
	@mkdir -p $(@D)
	$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... one-instruction conformance kernels over edge operands (tests/test-sim-conf.c) ...
build/tests/sim-conformance.ptx: tests/sim/conformance.cu tests/sim/conformance-edges.h
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... the features of CUDA that cuda-samples use (tests/test-sim-features.c) ...
build/tests/sim-features.ptx: tests/sim/features.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

build/tests/sim-textures.ptx: tests/sim/textures.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... the correct kernels the checks once accused, and the hazards they must name
# (tests/test-sim-hazards.c) ...
build/tests/sim-tiles.ptx: tests/sim/warp-tiles.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

build/tests/sim-hazards.ptx: tests/sim/hazards.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... every form of the constraint classes, built as the lab builds a student's file
# (tests/test-constraints.c) ...
build/tests/rules-forms.ptx: tests/rules/forms.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -arch=sm_90 -O3 -lineinfo -o $@ $<

# ... and device-side launches (dynamic parallelism): relocatable device code.
build/tests/sim-dynpar.ptx: tests/sim/dynpar.cu
	@mkdir -p $(@D)
	$(call say,NVCC,$<)$(NVCC) -ptx -rdc=true -arch=sm_90 -O3 -lineinfo -o $@ $<

SAN_ALL := $(MO_FILES) build/san/bin/cudalab build/san/libexec/cudalab/$(DRIVER) \
           $(KERNEL_PTX:%=build/san/libexec/cudalab/%) $(TESTS:%=build/san/tests/%) \
           build/san/tests/occ-oracle build/tests/sim-kernels.ptx build/tests/sim-dynpar.ptx \
           build/tests/sim-conformance.ptx build/tests/sim-constructs.ptx build/tests/sim-features.ptx \
           build/tests/sim-textures.ptx build/tests/sim-tiles.ptx build/tests/sim-hazards.ptx \
           build/tests/rules-forms.ptx build/san/tools/kernel-run

# --- tests -----------------------------------------------------------------
# Every test gets the sanitized lab through these variables.
export CUDALAB_TEST_BIN := $(CURDIR)/build/san/bin/cudalab
export CUDALAB_DATADIR_TEST := $(CURDIR)
export CUDALAB_LOCALEDIR_TEST := $(CURDIR)/build/locale
export CUDALAB_LIBEXECDIR_TEST := $(CURDIR)/build/san/libexec/cudalab
export CUDALAB_TEST_SIM_PTX := $(CURDIR)/build/tests/sim-kernels.ptx
export CUDALAB_TEST_SIM_DYNPAR_PTX := $(CURDIR)/build/tests/sim-dynpar.ptx
export CUDALAB_TEST_SIM_CONF_PTX := $(CURDIR)/build/tests/sim-conformance.ptx
export CUDALAB_TEST_SIM_CONSTRUCTS_PTX := $(CURDIR)/build/tests/sim-constructs.ptx
export CUDALAB_TEST_SIM_FEATURES_PTX := $(CURDIR)/build/tests/sim-features.ptx
export CUDALAB_TEST_SIM_TEXTURES_PTX := $(CURDIR)/build/tests/sim-textures.ptx
export CUDALAB_TEST_SIM_TILES_PTX := $(CURDIR)/build/tests/sim-tiles.ptx
export CUDALAB_TEST_SIM_HAZARDS_PTX := $(CURDIR)/build/tests/sim-hazards.ptx
export CUDALAB_TEST_RULES_PTX := $(CURDIR)/build/tests/rules-forms.ptx
export CUDALAB_OCC_ORACLE := $(CURDIR)/build/san/tests/occ-oracle
export CUDALAB_KERNEL_RUN_TEST := $(CURDIR)/build/san/tools/kernel-run
export CUDALAB_TOOLS_DIR_TEST := $(TOOLS_DIR)/bin
export ASAN_OPTIONS := detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS := print_stacktrace=1

test: all $(SAN_ALL) $(FUZZ_BINS) build/.deps-test-ok build/tools/libcudalab-model.so
	@$(MAKE) --no-print-directory format-check
	@tests/check-layers.sh
	@$(PYTHON) tests/check-figures.py
	@$(MAKE) --no-print-directory po-check
	@tests/run-unit.sh $(TESTS:%=build/san/tests/%)
	@tests/e2e/run.sh
	@FUZZ_SECONDS=3 tests/fuzz/run.sh $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory test-package

# The Debian package: built, unpacked into a clean folder root and run from there.
test-package: build/.deps-test-ok deb
	@CUDALAB_DEB=$(CURDIR)/$(DEB_FILE) E2E_TEST_TIMEOUT=300 tests/e2e/run.sh tests/e2e/package/test-deb.sh

test-unit: $(SAN_ALL)
	@tests/run-unit.sh $(TESTS:%=build/san/tests/%)

test-e2e: all $(SAN_ALL) build/.deps-test-ok build/tools/libcudalab-model.so
	@tests/e2e/run.sh

# The single-pass reduction against CUB in one run (needs an NVIDIA GPU); docs/bench/reduce.md.
build/bench/reduce-vs-cub: tests/bench/reduce-vs-cub.cu solutions/reduction/single-pass.cu common/common.h
	@mkdir -p $(@D)
	$(NVCC) -O3 -arch=sm_90 -std=c++17 -I. -o $@ $<

bench-reduce: build/bench/reduce-vs-cub
	build/bench/reduce-vs-cub

test-gpu: all build/tools/kernel-run
	@tests/gpu/run.sh; a=$$?; tests/gpu/run-profile.sh; b=$$?; exit $$((a | b))

# The installed copy (make install, and the package when debhelper is there) on the GPU.
test-gpu-install: all
	@tests/gpu/installed.sh

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

format-check:
	@$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC) && echo "format: ok"

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
