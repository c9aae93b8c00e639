// countproxy forwards TCP connections from a local port to a server and counts the bytes the
// server sends back, so that a benchmark can say how many bytes each reader pulled from an S3
// server (GET /bytes on the control port gives the count so far).
//
// Usage: countproxy LISTEN_ADDR SERVER_ADDR CONTROL_ADDR
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
)

var fromServer atomic.Int64

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: countproxy LISTEN_ADDR SERVER_ADDR CONTROL_ADDR")
		os.Exit(2)
	}
	listener, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "countproxy:", err)
		os.Exit(1)
	}
	http.HandleFunc("/bytes", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, fromServer.Load())
	})
	go func() { _ = http.ListenAndServe(os.Args[3], nil) }()
	for {
		client, err := listener.Accept()
		if err != nil {
			continue
		}
		go forward(client, os.Args[2])
	}
}

func forward(client net.Conn, server string) {
	defer client.Close()
	upstream, err := net.Dial("tcp", server)
	if err != nil {
		return
	}
	defer upstream.Close()
	go func() {
		_, _ = io.Copy(upstream, client)
		if tcp, ok := upstream.(*net.TCPConn); ok {
			_ = tcp.CloseWrite()
		}
	}()
	_, _ = io.Copy(counting{client}, upstream)
}

// counting counts what is written to the client as it goes (a connection kept alive may
// never end while a benchmark runs).
type counting struct{ w io.Writer }

func (c counting) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	fromServer.Add(int64(n))
	return n, err
}
