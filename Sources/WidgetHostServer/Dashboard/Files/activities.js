"use strict"; WH.views.activities = { refresh: async () => {} };
