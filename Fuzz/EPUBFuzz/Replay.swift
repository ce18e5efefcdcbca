import Foundation

// Built by `Fuzz/run.sh` (FUZZING, coverage instrumentation, libFuzzer linked), main hands the
// command line to libFuzzer's driver. From a plain `swift build`, the same target replays inputs:
// each argument is a file (a crash libFuzzer saved, or a seed) or a folder of them.
#if FUZZING
/// libFuzzer's entry for programs with a main of their own (libclang_rt.fuzzer_no_main).
typealias FuzzerDriver = @convention(c) (UnsafeMutablePointer<Int32>,
                                         UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                         @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32
#endif

@main
enum Replay {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
            fatalError("libFuzzer is not linked: build with Fuzz/run.sh")
        }
        let driver = unsafeBitCast(symbol, to: FuzzerDriver.self)
        exit(driver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
        #else
        var inputs: [String] = []
        for argument in CommandLine.arguments.dropFirst() {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("shelf-fuzz-epub: \(argument): no such file\n".utf8))
                exit(66)
            }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                inputs += names.sorted().map { argument + "/" + $0 }
            } else {
                inputs.append(argument)
            }
        }
        for input in inputs {
            guard let data = FileManager.default.contents(atPath: input) else { continue }
            FuzzTarget.run([UInt8](data))
        }
        print("replayed \(inputs.count) input(s) without a crash")
        #endif
    }
}
