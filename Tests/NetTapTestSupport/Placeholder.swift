import NetTapCore
