// Child process for the crash-durability tests.
import SharedState
