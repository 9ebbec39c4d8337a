// libFuzzer target: `make fuzz` (scripts/fuzz) builds it with -sanitize=fuzzer -parse-as-library
// -DFUZZING and runs it over the seed corpus plein-fuzz-seeds writes. Built normally it does
// nothing, but stays type-checked.
import PleinFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzEntry.content(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}

#if FUZZING
// SwiftPM links every executable with `main` pointing at `<module>_main`, so libFuzzer's own
// `main` is never used: this is that function, and it hands over to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

@_cdecl("plein_fuzz_content_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { start, size in fuzz(start, size) }
}
#endif
