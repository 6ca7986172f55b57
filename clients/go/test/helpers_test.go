package test

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/logger"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// recorder is a GORM logger that keeps each statement.
type recorder struct{ seen *[]string }

func (r recorder) LogMode(logger.LogLevel) logger.Interface      { return r }
func (r recorder) Info(context.Context, string, ...interface{})  {}
func (r recorder) Warn(context.Context, string, ...interface{})  {}
func (r recorder) Error(context.Context, string, ...interface{}) {}
func (r recorder) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	s, _ := fc()
	*r.seen = append(*r.seen, s)
}
