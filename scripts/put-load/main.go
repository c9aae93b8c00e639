// put-load: the one HTTP client the write benchmarks (scripts/bench-writes.sh) drive every peer
// with. It sends PUTs of one body to URLs read from a file (presigned S3 URLs, or a volume server's
// file ids), from N connections, either as fast as each connection's answers come (a closed loop)
// or at a fixed total rate (an open loop: latency counts from when each request was due, so a
// server that falls behind is charged for the queue). Prints one JSON line: requests per second,
// latency percentiles in ms, and non-2xx answers and errors.
package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	urlsFile := flag.String("urls", "", "file of URLs, one per line, used in turn")
	size := flag.Int("size", 1024, "body bytes")
	conns := flag.Int("c", 16, "connections (concurrent clients)")
	duration := flag.Duration("d", 10*time.Second, "how long to send")
	rate := flag.Float64("rate", 0, "requests per second in all (0: as fast as answered)")
	offset := flag.Int64("offset", 0, "the first URL used (so that runs can write new keys)")
	flag.Parse()
	urls := readLines(*urlsFile)
	body := make([]byte, *size)
	rand.Read(body)
	transport := &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}
	client := &http.Client{Transport: transport, Timeout: 60 * time.Second}

	var next, bad, failed int64
	latencies := make([][]float64, *conns)
	start := time.Now()
	end := start.Add(*duration)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for {
				i := atomic.AddInt64(&next, 1) - 1
				due := time.Now()
				if *rate > 0 {
					due = start.Add(time.Duration(float64(i) / *rate * float64(time.Second)))
					if wait := time.Until(due); wait > 0 {
						time.Sleep(wait)
					}
				}
				if due.After(end) {
					return
				}
				req, _ := http.NewRequest(http.MethodPut, urls[(i+*offset)%int64(len(urls))], bytes.NewReader(body))
				req.ContentLength = int64(len(body))
				resp, err := client.Do(req)
				if err != nil {
					if atomic.AddInt64(&failed, 1) == 1 {
						fmt.Fprintln(os.Stderr, "put-load: first error:", err)
					}
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					if atomic.AddInt64(&bad, 1) == 1 {
						fmt.Fprintln(os.Stderr, "put-load: first non-2xx:", resp.Status)
					}
					continue
				}
				latencies[c] = append(latencies[c], float64(time.Since(due).Microseconds())/1000)
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	var all []float64
	for _, l := range latencies {
		all = append(all, l...)
	}
	sort.Float64s(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return all[int(p*float64(len(all)-1))]
	}
	out, _ := json.Marshal(map[string]any{
		"requests": len(all), "req_per_s": float64(len(all)) / elapsed,
		"p50_ms": pct(0.50), "p99_ms": pct(0.99), "max_ms": pct(1),
		"non_2xx": bad, "errors": failed,
	})
	fmt.Println(string(out))
}

func readLines(name string) []string {
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "put-load:", err)
		os.Exit(2)
	}
	defer f.Close()
	var lines []string
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if s.Text() != "" {
			lines = append(lines, s.Text())
		}
	}
	if len(lines) == 0 {
		fmt.Fprintln(os.Stderr, "put-load: no URLs in", name)
		os.Exit(2)
	}
	return lines
}
