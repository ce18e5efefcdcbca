// The peer for shelf's cold start: a Swift program that loads Foundation and prints one line.
import Foundation
print(ProcessInfo.processInfo.processName)
