// gomodzip lays out a Go module as a module proxy serves it, from its
// directory, with golang.org/x/mod's zip (the files `go mod download` would
// get, by the same rules), so that a test can fetch it through
// GOPROXY=file://DIR exactly as a user would:
//
//	go run ./test/lib/gomodzip MODULE_DIR VERSION PROXY_DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gomodzip MODULE_DIR VERSION PROXY_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "gomodzip:", err)
		os.Exit(1)
	}
}

func run(dir, version, proxy string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(out, mv, dir); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	info := fmt.Sprintf("{\"Version\":%q,\"Time\":%q}\n", version, time.Now().UTC().Format(time.RFC3339))
	for name, body := range map[string]string{version + ".mod": string(gomod), version + ".info": info, "list": version + "\n"} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	fmt.Println(strings.TrimSuffix(filepath.Join(at, version+".zip"), "\n"))
	return nil
}
