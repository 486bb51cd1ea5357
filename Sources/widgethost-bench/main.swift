// widgethost-bench: release-mode benchmarks that print a table with their peers measured in the same run.
import Foundation

print("widgethost-bench: no cases yet")
