// WidgetHost: placeholder until its issue lands.
