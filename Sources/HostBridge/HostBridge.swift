// HostBridge: placeholder until its issue lands.
