// Package eval measures the segmenter's extraction against human gold:
// the aeb (English), readability and cwce-dev (Chinese, raw GBK/UTF-8
// bytes) sets of ../shared/data/extraction. It reports, per set, content
// precision, recall and F1 over bags of tokens (NFKC, lower-cased words
// for Latin text, single characters for CJK, punctuation never counted;
// F1 per page, an empty extraction scoring 0, averaged over pages), the
// title exact-match rate, and author and published-date accuracy over the
// pages whose gold has them.
package eval
