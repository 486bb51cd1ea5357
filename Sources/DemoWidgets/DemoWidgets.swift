// DemoWidgets: placeholder until its issue lands.
