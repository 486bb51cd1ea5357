// SharedState: placeholder until the foundation issue lands.
import CSQLite
