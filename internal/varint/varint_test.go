package varint

import (
	"encoding/binary"
	"math"
	"testing"
)

func TestReadsWhatBinaryWrote(t *testing.T) {
	us := []uint64{0, 1, 127, 128, 300, 1 << 40, math.MaxUint64}
	is := []int64{0, -1, 1, -64, 64, math.MinInt64, math.MaxInt64}
	var data []byte
	for k := range us {
		data = binary.AppendUvarint(data, us[k])
		data = binary.AppendVarint(data, is[k])
	}
	data = append(data, "tail"...)
	r := Reader{Data: data}
	for k := range us {
		if u, i := r.Uvarint(), r.Varint(); u != us[k] || i != is[k] {
			t.Errorf("value %d: %d %d, want %d %d", k, u, i, us[k], is[k])
		}
	}
	if b := r.Bytes(4); string(b) != "tail" || r.Bad || len(r.Data) != 0 {
		t.Errorf("bytes %q, bad %v, left %d", b, r.Bad, len(r.Data))
	}
	// Cut short: every later read is zero and Bad stays set.
	r = Reader{Data: binary.AppendUvarint(nil, 1<<40)[:2]}
	if r.Uvarint() != 0 || !r.Bad || r.Varint() != 0 || r.Bytes(0) != nil {
		t.Error("a cut value read as something")
	}
	r = Reader{Data: []byte("ab")}
	if r.Bytes(3) != nil || !r.Bad {
		t.Error("more bytes than there are read")
	}
}
