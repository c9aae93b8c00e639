module hpf/countproxy

go 1.22
