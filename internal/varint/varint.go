// Package varint reads back, a value at a time, what encoding/binary's
// AppendUvarint and AppendVarint wrote: the summaries' stored steps
// (cudaparse) and the engine's stat index both are such records.
package varint

import "encoding/binary"

// Reader reads values off Data. At the first value that does not decode
// (a record cut short) Bad is set and Data emptied, so every later read
// gives zero: a caller checks Bad once, after the values it wanted.
type Reader struct {
	Data []byte
	Bad  bool
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if len(r.Data) > 0 && r.Data[0] < 0x80 { // most values: one byte
		v := uint64(r.Data[0])
		r.Data = r.Data[1:]
		return v
	}
	v, n := binary.Uvarint(r.Data)
	if n <= 0 {
		r.Bad, r.Data = true, nil
		return 0
	}
	r.Data = r.Data[n:]
	return v
}

// Varint reads a signed varint (zigzag over Uvarint, as AppendVarint
// writes it).
func (r *Reader) Varint() int64 {
	u := r.Uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// Bytes reads the next n bytes (a slice of Data).
func (r *Reader) Bytes(n uint64) []byte {
	if r.Bad || n > uint64(len(r.Data)) {
		r.Bad, r.Data = true, nil
		return nil
	}
	b := r.Data[:n]
	r.Data = r.Data[n:]
	return b
}
