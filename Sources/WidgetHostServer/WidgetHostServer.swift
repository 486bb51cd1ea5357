// WidgetHostServer: placeholder until its issue lands.
