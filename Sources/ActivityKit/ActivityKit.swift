// ActivityKit: placeholder until its issue lands.
