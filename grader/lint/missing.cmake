# stepwise_report_missing(<problems variable> <items> <present> <message>)
# Adds `message` to the list in <problems variable> once for each of `items` that is not in
# `present`, with @ITEM@ in the message replaced by the item. The lints check two lists against
# each other with it, both ways.
function(stepwise_report_missing problems_variable items present message)
  set(problems ${${problems_variable}})
  foreach(item IN LISTS items)
    if(NOT item IN_LIST present)
      string(REPLACE "@ITEM@" "${item}" text "${message}")
      list(APPEND problems "${text}")
    endif()
  endforeach()
  set(${problems_variable} ${problems} PARENT_SCOPE)
endfunction()
