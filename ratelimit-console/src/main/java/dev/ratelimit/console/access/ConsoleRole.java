package dev.ratelimit.console.access;

/** What an operator may do in the console. */
public enum ConsoleRole {

    /** Sees every page and changes nothing. */
    VIEWER,

    /** Changes rules, unblocks and denies clients, within the operator's modules. */
    OPERATOR
}
