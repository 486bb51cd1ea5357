// WidgetKit: placeholder until its issue lands.
