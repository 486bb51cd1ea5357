"use strict"; WH.views.taps = { refresh: async () => {} };
