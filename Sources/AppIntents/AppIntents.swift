// AppIntents: placeholder until its issue lands.
