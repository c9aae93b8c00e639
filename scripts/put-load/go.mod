module hpf.io/put-load

go 1.22
