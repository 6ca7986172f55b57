module idgen.test/gomodzip

go 1.25.0

require golang.org/x/mod v0.33.0
