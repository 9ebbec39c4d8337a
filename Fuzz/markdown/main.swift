// libFuzzer target: `make fuzz` (scripts/fuzz) builds it with the trait Fuzzing (-sanitize=fuzzer,
// -parse-as-library, FUZZING) and runs it over the seed corpus plein-fuzz-seeds writes. Built normally it does
// nothing, but stays type-checked.
import PleinFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.markdown(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

#if FUZZING
@_cdecl("plein_fuzz_markdown_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzEntry.runLibFuzzer(argc, argv) { start, size in fuzz(start, size) }
}
#endif
