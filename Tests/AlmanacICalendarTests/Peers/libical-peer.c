/* libical as a peer for Almanac's tests.
 *
 *   libical-peer check FILE              parse; print "errors N components N"; exit 1 on parse errors
 *   libical-peer expand FILE FROM UNTIL  the recurrence set (RRULE + RDATE - EXDATE) of every
 *                                        component that has no RECURRENCE-ID, one "UID<TAB>START"
 *                                        line each, START as D:YYYY-MM-DD (dates), F:YYYYMMDDTHHMMSS
 *                                        (floating) or U:YYYYMMDDTHHMMSSZ (instants); FROM and UNTIL
 *                                        are UTC instants YYYYMMDDTHHMMSSZ.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(2); }
    text[size] = 0;
    fclose(file);
    return text;
}

static int count_errors(icalcomponent *component, int *components) {
    int errors = icalcomponent_count_properties(component, ICAL_XLICERROR_PROPERTY);
    *components += 1;
    for (icalcomponent *child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT); child;
         child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)) {
        errors += count_errors(child, components);
    }
    return errors;
}

struct expansion { const char *uid; };

static void print_time(const char *uid, struct icaltimetype start) {
    if (start.is_date) {
        printf("%s\tD:%04d-%02d-%02d\n", uid, start.year, start.month, start.day);
    } else if (icaltime_is_utc(start) || start.zone) {
        struct icaltimetype utc = icaltime_convert_to_zone(start, icaltimezone_get_utc_timezone());
        printf("%s\tU:%04d%02d%02dT%02d%02d%02dZ\n", uid, utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second);
    } else {
        printf("%s\tF:%04d%02d%02dT%02d%02d%02d\n", uid, start.year, start.month, start.day, start.hour, start.minute, start.second);
    }
}

static void on_occurrence(icalcomponent *component, struct icaltime_span *span, void *data) {
    (void)span;
    struct expansion *expansion = data;
    /* foreach_recurrence reports spans in UTC seconds; recover the occurrence's own form. */
    struct icaltimetype start = icalcomponent_get_dtstart(component);
    struct icaltimetype occurrence;
    if (start.is_date) {
        occurrence = icaltime_from_timet_with_zone(span->start, 1, icaltimezone_get_utc_timezone());
    } else if (start.zone == NULL && !icaltime_is_utc(start)) {
        occurrence = icaltime_from_timet_with_zone(span->start, 0, NULL);
    } else {
        occurrence = icaltime_from_timet_with_zone(span->start, 0, icaltimezone_get_utc_timezone());
    }
    print_time(expansion->uid, occurrence);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: libical-peer check|expand FILE [FROM UNTIL]\n"); return 2; }
    char *text = slurp(argv[2]);
    icalcomponent *calendar = icalparser_parse_string(text);
    if (!calendar) { printf("errors 1 components 0\n"); return 1; }
    if (strcmp(argv[1], "check") == 0) {
        int components = 0;
        int errors = count_errors(calendar, &components);
        printf("errors %d components %d\n", errors, components);
        return errors > 0;
    }
    struct icaltimetype from = icaltime_from_string(argv[3]);
    struct icaltimetype until = icaltime_from_string(argv[4]);
    for (icalcomponent *item = icalcomponent_get_first_component(calendar, ICAL_ANY_COMPONENT); item;
         item = icalcomponent_get_next_component(calendar, ICAL_ANY_COMPONENT)) {
        icalcomponent_kind kind = icalcomponent_isa(item);
        if (kind != ICAL_VEVENT_COMPONENT && kind != ICAL_VTODO_COMPONENT) continue;
        if (icalcomponent_get_first_property(item, ICAL_RECURRENCEID_PROPERTY)) continue;
        if (!icalcomponent_get_first_property(item, ICAL_DTSTART_PROPERTY)) continue;
        struct expansion expansion = { icalcomponent_get_uid(item) };
        icalcomponent_foreach_recurrence(item, from, until, on_occurrence, &expansion);
    }
    icalcomponent_free(calendar);
    free(text);
    return 0;
}
