import TextStatsKit

TextStats.main()
