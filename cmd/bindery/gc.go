package main

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPercent is the collector's target when the operator sets none. Serving a request allocates
// a lot of short-lived memory (SQL text, rows, JSON); with Go's default of 100 the collector ran
// often enough to cost about 45% of throughput. The memory limit below keeps the larger target
// from growing the heap past what the machine has.
const gcPercent = 400

// memoryShare is the part of the container's (or machine's) memory the heap may use before the
// collector works harder regardless of gcPercent.
const memoryShare = 0.7

// tuneGC sets the collector's target and a soft memory limit, unless GOGC or GOMEMLIMIT is set
// (then the operator has decided and the runtime already applied it). It returns what it chose,
// for the start-up log line; limit 0 means no limit was found.
func tuneGC() (percent int, limit int64, chosen bool) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return 0, 0, false
	}
	debug.SetGCPercent(gcPercent)
	if total := memoryAvailable(); total > 0 {
		limit = int64(float64(total) * memoryShare)
		debug.SetMemoryLimit(limit)
	}
	return gcPercent, limit, true
}

// memoryAvailable is the cgroup's memory limit (v2, then v1) when there is one, else the
// machine's memory; 0 when neither can be read.
func memoryAvailable() int64 {
	var machine int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				machine = kb * 1024
				break
			}
		}
		f.Close()
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		// "max" (v2) or a huge number (v1) means no limit.
		if err == nil && n > 0 && (machine == 0 || n < machine) {
			return n
		}
	}
	return machine
}
