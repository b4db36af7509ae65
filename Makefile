# SPDX-License-Identifier: GPL-2.0-only
# schedplot: one non-recursive Makefile.  Override any of these on the
# command line: make PREFIX=/usr DESTDIR=/tmp/pkg install

VERSION    := $(shell cat VERSION)
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
# the views of contrib/views; the program finds them as BINDIR/../share/schedplot/views
VIEWSDIR   := $(PREFIX)/share/schedplot/views
DESTDIR    ?=
CC         ?= cc
PKG_CONFIG ?= pkg-config
INSTALL    ?= install

PKGS := libtracecmd libtraceevent libtracefs cairo libpng zlib libzstd sqlite3
# Debian package that provides each pkg-config module, for the error message.
deb_libtracecmd    := libtracecmd-dev
deb_libtraceevent  := libtraceevent-dev
deb_libtracefs     := libtracefs-dev
deb_cairo          := libcairo2-dev
deb_libpng         := libpng-dev
deb_zlib           := zlib1g-dev
deb_libzstd        := libzstd-dev
deb_sqlite3        := libsqlite3-dev
deb_cmocka         := libcmocka-dev

ifeq ($(filter clean distclean,$(MAKECMDGOALS)),)
missing := $(strip $(foreach p,$(PKGS),$(if $(shell $(PKG_CONFIG) --exists $(p) && echo y),,$(p))))
ifneq ($(missing),)
$(error missing libraries: $(missing); install the Debian packages $(foreach p,$(missing),$(deb_$(p))) (or run tests/tools/install-deps))
endif
endif

DEP_VERSIONS := $(foreach p,libtracecmd libtraceevent libtracefs cairo,$(p) $(shell $(PKG_CONFIG) --modversion $(p) 2>/dev/null))
OPT        ?= -O2 -g
WARN       := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
CFLAGS     ?= $(OPT)
# _FILE_OFFSET_BITS: traces of more than 2 GiB on 32-bit hosts too
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) -MMD -MP -Iinclude -D_FILE_OFFSET_BITS=64 \
              -DSP_VERSION='"$(VERSION)"' -DSP_DEP_VERSIONS='"$(DEP_VERSIONS)"' $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS       := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm -pthread
ifeq ($(WERROR),1)
ALL_CFLAGS += -Werror
endif
# The build users get (make, make install, the Debian package) is GCC's
# profile-guided one, PGO=1 below, into build-pgo/; PGO=0 opts out.  A
# compiler other than GCC builds plainly.  The test and developer goals
# (make check, unit, the sanitizers, targets under build/) keep the plain
# build in build/: the training run would double every build of the suite,
# and tests/package/0086-pgo.sh checks that the PGO build's output is the
# plain one's.
IS_GCC     := $(shell $(CC) -v 2>&1 | grep -c '^gcc version')
PLAIN_GOALS := unit check check-package check-all check-layers check-headers fuzz fuzz-build \
	fuzz-afl-build build/% clean distclean
ifeq ($(origin PGO),undefined)
ifeq ($(IS_GCC)$(SANITIZE),1)
PGO := $(if $(filter $(PLAIN_GOALS),$(MAKECMDGOALS)),0,1)
else
PGO := 0
endif
endif
ifeq ($(SANITIZE),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS    += -fsanitize=address,undefined
BUILD      ?= build-san
else ifeq ($(SANITIZE),thread)
# ThreadSanitizer, for the reader's helper threads and their atomics: make
# check SANITIZE=thread builds into build-tsan/ and runs the tests that
# start those threads (CHECK_SUITES below).
ALL_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS    += -fsanitize=thread
BUILD      ?= build-tsan
else ifeq ($(PGO),1)
BUILD      ?= build-pgo
else
BUILD      ?= build
endif
# PGO=1 (GCC): optimised with the profile of a training run, into build-pgo/.
# A build that counts where the branches go (made by a make with PGO=train
# into the same directory, so the counts lie next to the objects) runs
# tests/tools/pgo-train; every object is then compiled again, newer than the
# profile ($(PGO_PROFILE)), with the counts.  The passes are 10-15% faster
# (tests/bench/README.md); the output is the same.
ifneq ($(filter 1 train,$(PGO)),)
ifeq ($(IS_GCC),0)
$(error PGO=1 needs GCC; CC is $(CC))
endif
endif
ifeq ($(PGO),train)
ALL_CFLAGS += -fprofile-generate -fprofile-update=atomic
LDFLAGS    += -fprofile-generate
else ifeq ($(PGO),1)
ALL_CFLAGS += -fprofile-use -fprofile-partial-training -Wno-missing-profile
PGO_PROFILE = $(BUILD)/pgo-profile
endif

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

# The layers, bottom-up; a file includes headers of its own layer or lower
# ones only (make check-layers).
LAYERS   := base trace model analysis draw views export cli
ALL_SRC  := $(wildcard $(LAYERS:%=src/%/*.c))
CLI_SRC  := $(wildcard src/cli/*.c)
LIB_SRC  := $(filter-out $(CLI_SRC),$(ALL_SRC))
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:src/%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
PROG     := $(BUILD)/schedplot

all: $(PROG) schedplot

schedplot: $(PROG)
	$(Q)ln -sf $(PROG) $@

$(PROG): $(LIB_OBJ) $(CLI_OBJ)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: src/%.c $(PGO_PROFILE)
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(shell $(PKG_CONFIG) --cflags cmocka) -o $@ $< \
		$(LIB_OBJ) $(LDFLAGS) $(LIBS) $(shell $(PKG_CONFIG) --libs cmocka)

unit: $(UNIT_BIN)

ifeq ($(PGO),1)
$(PGO_PROFILE): $(ALL_SRC) $(wildcard include/schedplot/*/*.h) tests/tools/pgo-train tests/gen/gen-trace.c
	$(quiet) PGO "training run (tests/tools/pgo-train)"
	$(Q)rm -f $(BUILD)/*/*.o $(BUILD)/*/*.gcda $(BUILD)/tests/*.gcda
	$(Q)$(MAKE) --no-print-directory PGO=train BUILD=$(BUILD) $(BUILD)/schedplot \
		$(BUILD)/tests/gen-trace
	$(Q)tests/tools/pgo-train $(BUILD)/schedplot $(BUILD)/tests/gen-trace || { \
		echo "  PGO    the training run failed: building without a profile" >&2; \
		rm -f $(BUILD)/*/*.gcda; }
	$(Q)touch $@
endif

# The synthetic trace generator (tests and benchmarks): build/tests/gen-trace.
GEN_TRACE := $(BUILD)/tests/gen-trace

$(GEN_TRACE): tests/gen/gen-trace.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(quiet) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

# make check: the functional suite (the unit tests and tests/cli/), quick
# enough to run after every change; tests/run runs TEST_JOBS files at once
# (one per core) and ends with each suite's CPU and wall time.
NPROC     := $(shell nproc 2>/dev/null || echo 1)
TEST_JOBS ?= $(NPROC)
# Under ThreadSanitizer only the unit tests that read traces (the reader
# merges many CPUs with a helper thread, cpustream reads ahead in another)
# and tests/tsan/, the commands on the bundled traces and on generated
# traces of 64 CPUs.
# (setarch -R: GCC 12's TSan stops with "unexpected memory mapping" where
# the kernel randomizes more than 28 bits of the mmap base.)
ifeq ($(SANITIZE),thread)
CHECK_SUITES := unit tsan
CHECK_UNIT   := test-reader test-writer test-topology
# test-reader leaves out its comparisons on the shared traces: minutes under
# TSan; the bundled traces and tests/tsan/'s generated ones start the threads
CHECK_RUN    := SP_TEST_SKIP_SHARED=1 $(shell setarch -R true 2>/dev/null && echo setarch -R)
else
CHECK_SUITES := unit cli
CHECK_UNIT   := $(UNIT_BIN:$(BUILD)/tests/%=%)
endif
# Under ASan/UBSan every unit test and the CLI tests that run C code on
# real or hostile inputs; left out, each with the reason (they still run
# in the plain make check):
ifeq ($(SANITIZE),1)
# stats --json on the traces 0012-golden reads too; the rest is the oracle
CHECK_SKIP += 0010-stats-oracle
# stats --json on traces 0012-golden reads too, checked in Python
CHECK_SKIP += 0014-complete-from-start
# running-waiting and its CSV on traces 0012-golden draws too; the rest is
# the integration in Python
CHECK_SKIP += 0040-running-waiting
# which file is read (-i, trace.dat): argument handling, then the same read
CHECK_SKIP += 0043-input
# usage messages: option parsing only
CHECK_SKIP += 0044-usage-errors
# man pages, --help and completions: text
CHECK_SKIP += 0080-docs
endif

check: $(PROG) $(CHECK_UNIT:%=$(BUILD)/tests/%) $(GEN_TRACE)
	$(Q)BUILD=$(BUILD) SCHEDPLOT=$(CURDIR)/$(PROG) UNIT_TESTS='$(CHECK_UNIT)' \
		SKIP_TESTS='$(strip $(CHECK_SKIP))' $(CHECK_RUN) tests/run -j$(TEST_JOBS) $(CHECK_SUITES)

# The packaging and lint checks of tests/package/, slow and needing more
# tools (make install, PGO=1, the Debian package, a fuzzing run, valgrind,
# cppcheck); they skip, saying so, what this machine cannot do.
check-package: $(PROG)
	$(Q)BUILD=$(BUILD) SCHEDPLOT=$(CURDIR)/$(PROG) tests/run -j$(TEST_JOBS) package

# The structure: no include points up the layers; every header stands alone.
check-layers:
	$(Q)tests/tools/check-layers

check-headers:
	$(Q)tests/tools/check-headers $(CC) -std=gnu11 $(WARN) -Iinclude \
		$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)

# Every test: the structure, the functional suite, the packaging checks,
# the functional suite again under ASan/UBSan, the threads under TSan.
# What CI runs (.ci/run) on two cores; README "Tests" has its time budget.
# Each part compiles on every core (-j$(NPROC)), as tests/run runs its files.
check-all: check-layers check-headers
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) check
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) check-package
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) check SANITIZE=1
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) check SANITIZE=thread

# Render the bundled sample trace: the README's first command.
SAMPLE := traces/overload.dat
sample: $(PROG) schedplot
	@mkdir -p sample
	$(PROG) stats $(SAMPLE)
	$(PROG) datagraph -o sample/overload-datagraph.png $(SAMPLE)
	$(PROG) running-waiting -o sample/overload-running-waiting.png $(SAMPLE)
	$(PROG) overview -o sample/overload-overview.png $(SAMPLE)
	$(PROG) latency -o sample/overload-latency.png $(SAMPLE)
	@echo "images in sample/"

# The README's pictures, made from traces/ so they never go stale.
doc: $(PROG) schedplot $(GEN_TRACE)
	@mkdir -p doc
	$(GEN_TRACE) --cpus 512 --sockets 4 --overload --seed 3 -o $(BUILD)/gen512.dat > /dev/null
	$(PROG) running-waiting -q -o doc/gen512-running-waiting.png $(BUILD)/gen512.dat
	$(PROG) datagraph -q -o doc/overload-datagraph.png $(SAMPLE)
	$(PROG) running-waiting -q -o doc/overload-running-waiting.png $(SAMPLE)
	$(PROG) datagraph -q --min 0.1 --max 0.12 -o doc/overload-zoom.png $(SAMPLE)
	$(PROG) running-waiting -q -o doc/messaging-running-waiting.png traces/messaging.dat
	$(PROG) latency -q --by placement --width 1000 --height 600 -o doc/overload-latency.png \
		$(SAMPLE) > /dev/null
	$(GEN_TRACE) --cpus 8 --sockets 2 --power --seed 2 --events 20000 \
		-o $(BUILD)/gen-power.dat > /dev/null
	$(PROG) datagraph -q --freq merged --idle-states --time 1.19,1.21 \
		-o doc/gen-power-datagraph.png $(BUILD)/gen-power.dat
	$(PROG) compare -q --names 2-per-cpu,3-per-cpu --metric migrations_per_s \
		-o doc/compare.png traces/compare/t2-*.dat --vs traces/compare/t3-*.dat > /dev/null
	$(PROG) compare -q --view datagraph --no-shift --names 2-per-cpu,3-per-cpu --height 700 \
		-o doc/compare-datagraph.png traces/compare/t2-*.dat --vs traces/compare/t3-*.dat > /dev/null
	$(PROG) datagraph -q --migrations --wakeups --placement --width 1000 \
		--time 438.9116,438.9126 -o doc/messaging-migrations.png traces/messaging.dat
	$(PROG) datagraph -q --migrations --wakeups --placement --width 1000 \
		--min 8ms --max 20ms -o doc/overload-marks.png $(SAMPLE)
	$(PROG) explain -q -o doc/overload-explain.png $(SAMPLE) > /dev/null
	$(PROG) tasks -q --target pingpong --long-pole --min 140ms --height 300 \
		-o doc/pingpong-why.png traces/why/pingpong.dat

# The benchmark of the build users get (PGO=1 with GCC, as make builds it,
# into build-bench/); inputs are made once into bench-data/ (BENCH_DATA).
BENCH_PGO := $(if $(filter 1,$(IS_GCC)),1,0)
bench:
	$(Q)$(MAKE) --no-print-directory PGO=$(BENCH_PGO) BUILD=build-bench \
		build-bench/schedplot build-bench/tests/gen-trace
	$(Q)SCHEDPLOT=$(CURDIR)/build-bench/schedplot GEN_TRACE=$(CURDIR)/build-bench/tests/gen-trace \
		tests/bench/run

# The libFuzzer harness over open, decode, model and drawing (issue 7), built
# with clang and ASan/UBSan into build-fuzz/.  make fuzz [FUZZ_TIME=60]
# runs it on one worker; tests/fuzz/README says more.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 60
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_BIN   := build-fuzz/fuzz-trace

fuzz-build:
	$(Q)$(MAKE) --no-print-directory CC='$(FUZZ_CC)' BUILD=build-fuzz \
		CFLAGS='-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link' $(FUZZ_BIN)

$(BUILD)/fuzz-trace: tests/fuzz/fuzz-trace.c $(LIB_OBJ)
	$(quiet) LD $@
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

fuzz: fuzz-build
	$(Q)FUZZ_BIN=$(CURDIR)/$(FUZZ_BIN) tests/fuzz/run $(FUZZ_TIME)

# The same harness for AFL++ (Debian package afl++): afl-clang-fast
# instruments the code and links its own driver for -fsanitize=fuzzer.
# tests/fuzz/README shows how to run afl-fuzz on it.
AFL_CC     ?= afl-clang-fast

fuzz-afl-build:
	$(Q)$(MAKE) --no-print-directory CC='$(AFL_CC)' BUILD=build-afl CFLAGS='-O1 -g' \
		build-afl/fuzz-trace

install: $(PROG)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 $(PROG) $(DESTDIR)$(BINDIR)/schedplot
	$(INSTALL) -m 644 $(wildcard man/*.1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(wildcard contrib/schedplot.bash),$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR) && \
		$(INSTALL) -m 644 contrib/schedplot.bash $(DESTDIR)$(BASHCOMPDIR)/schedplot)
	$(if $(wildcard contrib/_schedplot),$(INSTALL) -d $(DESTDIR)$(ZSHCOMPDIR) && \
		$(INSTALL) -m 644 contrib/_schedplot $(DESTDIR)$(ZSHCOMPDIR)/_schedplot)
	$(INSTALL) -d $(DESTDIR)$(VIEWSDIR)
	$(INSTALL) -m 644 $(wildcard contrib/views/*.view) $(DESTDIR)$(VIEWSDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/schedplot $(DESTDIR)$(BASHCOMPDIR)/schedplot
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_schedplot
	rm -f $(patsubst contrib/views/%,$(DESTDIR)$(VIEWSDIR)/%,$(wildcard contrib/views/*.view))
	rm -f $(patsubst man/%,$(DESTDIR)$(MANDIR)/man1/%,$(wildcard man/*.1))

clean:
	rm -rf build build-san build-tsan build-pgo build-bench build-fuzz build-afl schedplot sample

.PHONY: all unit check check-package check-all check-layers check-headers sample doc bench fuzz fuzz-build fuzz-afl-build install uninstall clean

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/tests/*.d)
