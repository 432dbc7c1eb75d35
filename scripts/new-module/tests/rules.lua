-- The module's own tests: `chancery test {NAME}` runs them.

test("the first player to five points wins", function(t)
  local g = t:game {}
  for _ = 1, 4 do
    g:act("score")
    g:act("pass")
  end
  g:act("score")
  t:eq(g:counter("points.P1"), 5)
  t:eq(g:result().winners, { "P1" })
end)

test("the greedy bot races to five", function(t)
  local g = t:game { seats = { P1 = "bot", P2 = "bot" } }
  g:run_bots()
  t:eq(g:result().winners, { "P1" }, "the first to score wins the race")
end)
