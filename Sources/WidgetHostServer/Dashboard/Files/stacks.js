"use strict"; WH.views.stacks = { refresh: async () => {} };
